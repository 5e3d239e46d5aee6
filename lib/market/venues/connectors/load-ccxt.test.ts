import { describe, expect, it } from "vitest";
import { VENUE_IDS } from "../../model/types";
import { loadCcxt, venueModuleUrl } from "./load-ccxt";
import { HTTP_VENUE_IDS, type CcxtVenueId } from "./venue-adapter";

// The HTTP venues have no class in the installed ccxt and are never loaded through it.
const CCXT_VENUE_IDS = VENUE_IDS.filter(
  (venue): venue is CcxtVenueId => !(HTTP_VENUE_IDS as readonly string[]).includes(venue),
);

describe("loadCcxt", () => {
  it("finds a venue's module beside ccxt's index", () => {
    expect(venueModuleUrl("/srv/app/node_modules/ccxt/dist/ccxt.cjs", "gate")).toBe("file:///srv/app/node_modules/ccxt/js/src/gate.js");
  });

  it.each(CCXT_VENUE_IDS)("loads %s's exchange class alone, and the same one again", async (venue) => {
    const lib = await loadCcxt(venue);
    expect(Object.keys(lib)).toEqual([venue]);
    expect(new lib[venue]({}).id).toBe(venue);
    expect(await loadCcxt(venue)).toBe(lib);
  });
});
