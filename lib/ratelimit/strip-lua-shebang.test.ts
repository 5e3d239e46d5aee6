import { describe, expect, it } from "vitest";
import { stripLuaShebang } from "./strip-lua-shebang";

describe("stripLuaShebang", () => {
  it("drops Upstash's shebang line and keeps the line count", () => {
    const script = "#!lua flags=allow-key-locking\n  local key = KEYS[1]\n  return 1\n";
    expect(stripLuaShebang(script)).toBe("\n  local key = KEYS[1]\n  return 1\n");
  });

  it("leaves scripts without a shebang untouched", () => {
    const script = "\n      local pattern = KEYS[1]\n";
    expect(stripLuaShebang(script)).toBe(script);
  });

  it("empties a script that is only a shebang", () => {
    expect(stripLuaShebang("#!lua flags=no-writes")).toBe("");
  });
});
