import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HISTORY_READERS } from "./history-readers";

const README = readFileSync(new URL("./README.md", import.meta.url), "utf8");

describe("lib/history/venues/README.md", () => {
  it("has a row for every reader with its page size", () => {
    for (const reader of HISTORY_READERS) {
      const row = README.split("\n").find((line) => line.startsWith(`| ${reader.exchange} |`));
      expect(row, reader.exchange).toBeDefined();
      expect(row?.split("|")[3]?.trim(), reader.exchange).toMatch(new RegExp(`^~?${reader.limits.pageSize}\\b`));
    }
  });
});
