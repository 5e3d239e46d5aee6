import { describe, expect, it } from "vitest";
import { DEFAULT_RETURN_PATH, safeReturnPath } from "./safe-redirect";

const SITE = "https://funding.example";

describe("safeReturnPath", () => {
  it.each([
    ["/account", "/account"],
    ["/account/api-keys", "/account/api-keys"],
    ["/opportunities?exchange=okx&sort=apr", "/opportunities?exchange=okx&sort=apr"],
    ["/portfolio#positions", "/portfolio"],
    ["/a/../account", "/account"],
    ["/docs?q=%20x", "/docs?q=%20x"],
    // Percent-encoded separators stay encoded: the browser never decodes them into a host.
    ["/%09/evil.example", "/%09/evil.example"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%5Cevil.example", "/%5Cevil.example"],
    ["/caf\u00e9", "/caf%C3%A9"],
  ])("keeps the same-site path %j as %j", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  const nasty: [string, unknown][] = [
    ["tab between slashes", "/\t/evil.example"],
    ["newline between slashes", "/\n/evil.example"],
    ["carriage return between slashes", "/\r/evil.example"],
    ["CRLF header injection", "/account\r\nSet-Cookie: a=b"],
    ["newline in a path", "/acc\nount"],
    ["NUL", "/account\u0000"],
    ["DEL", "/account\u007f"],
    ["C1 control", "/account\u0085"],
    ["scheme-relative", "//evil.example"],
    ["scheme-relative with path", "//evil.example/account"],
    ["three slashes", "///evil.example"],
    ["backslash after slash", "/\\evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["slash backslash backslash", "/\\\\evil.example"],
    ["backslash slash", "\\/evil.example"],
    ["dot segment collapsing to scheme-relative", "/.//evil.example"],
    ["absolute https", "https://evil.example"],
    ["absolute http to another site", "http://evil.example/account"],
    ["scheme without slashes", "https:evil.example"],
    ["javascript", "javascript:alert(1)"],
    ["data", "data:text/html,<script>alert(1)</script>"],
    ["credentials on our own host", `${SITE.replace("https://", "https://user:pass@")}/account`],
    ["relative path", "account"],
    ["query only", "?next=/account"],
    ["empty", ""],
    ["non-string", ["/account"]],
    ["undefined", undefined],
    ["over-long", `/${"a".repeat(5000)}`],
    ["no-break space", "/\u00a0/evil.example"],
    ["ogham space", "/\u1680/evil.example"],
    ...Array.from({ length: 0x200b - 0x2000 + 1 }, (_, i): [string, string] => [
      `U+${(0x2000 + i).toString(16).toUpperCase()}`,
      `/${String.fromCharCode(0x2000 + i)}/evil.example`,
    ]),
    ["zero-width joiner", "/\u200d/evil.example"],
    ["left-to-right mark", "/\u200e/evil.example"],
    ["right-to-left override", "/\u202e/evil.example"],
    ["line separator", "/\u2028/evil.example"],
    ["paragraph separator", "/\u2029/evil.example"],
    ["narrow no-break space", "/\u202f/evil.example"],
    ["medium mathematical space", "/\u205f/evil.example"],
    ["word joiner", "/\u2060/evil.example"],
    ["ideographic space", "/\u3000/evil.example"],
    ["BOM", "\ufeff//evil.example"],
    ["leading space", " //evil.example"],
    ["fullwidth solidus", "/\uff0fevil.example"],
  ];

  it.each(nasty)("refuses %s", (_label, input) => {
    const result = safeReturnPath(input);
    // Either the fallback or a path that stays on this site; never anything a browser reads as another host.
    expect(result === DEFAULT_RETURN_PATH || new URL(result, SITE).origin === SITE).toBe(true);
    expect(result).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
  });

  it.each(nasty.filter(([label]) => label !== "fullwidth solidus"))("falls back for %s", (_label, input) => {
    expect(safeReturnPath(input, "/fallback")).toBe("/fallback");
  });

  it("accepts absolute URLs of the site itself only when told the site's origin", () => {
    expect(safeReturnPath(`${SITE}/account?x=1`, "/fallback", SITE)).toBe("/account?x=1");
    expect(safeReturnPath(`${SITE}/account`)).toBe(DEFAULT_RETURN_PATH);
    expect(safeReturnPath(`${SITE}.evil.example/account`, "/fallback", SITE)).toBe("/fallback");
    expect(safeReturnPath(`${SITE}@evil.example/account`, "/fallback", SITE)).toBe("/fallback");
    expect(safeReturnPath("https://evil.example/account", "/fallback", SITE)).toBe("/fallback");
    expect(safeReturnPath(`${SITE}//evil.example`, "/fallback", SITE)).toBe("/fallback");
  });

  it("never returns anything but printable ASCII starting with a single slash", () => {
    for (let code = 0; code < 0x3100; code++) {
      const result = safeReturnPath(`/${String.fromCharCode(code)}/x`);
      expect(result, `U+${code.toString(16)}`).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
    }
  });
});
