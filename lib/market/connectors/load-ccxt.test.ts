import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "../types";
import { loadCcxt, venueModuleUrl } from "./load-ccxt";

describe("loadCcxt", () => {
  it("finds a venue's module beside ccxt's index", () => {
    expect(venueModuleUrl("/srv/app/node_modules/ccxt/dist/ccxt.cjs", "gate")).toBe("file:///srv/app/node_modules/ccxt/js/src/gate.js");
  });

  it("loads each venue's exchange class, and the same ones again", async () => {
    const lib = await loadCcxt();
    expect(Object.keys(lib).sort()).toEqual([...VENUE_IDS].sort());
    for (const venue of VENUE_IDS) expect(new lib[venue]({}).id).toBe(venue);
    expect(await loadCcxt()).toBe(lib);
  });
});
