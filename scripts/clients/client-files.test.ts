import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientFiles } from "./client-files";

describe("the clients' generated files", () => {
  it("match the current OpenAPI document (run `npm run clients:generate` after changing a route)", async () => {
    for (const [file, text] of Object.entries(await clientFiles())) {
      let committed = "";
      try {
        committed = readFileSync(file, "utf8");
      } catch {
        // a missing file is as stale as an outdated one
      }
      expect(committed === text, `${file} is stale: run npm run clients:generate`).toBe(true);
    }
  });
});
