// ccxt, loaded on first use and only as much of it as the six venues need. Its index imports every
// one of its ~110 exchanges and their websocket clients: ~95 MB resident and half a second once
// loaded. The six exchange modules (js/src/<id>.js, which import only ccxt's base classes) take
// ~40 MB. ccxt's package exports only its index, so they are found by path from the index's
// location; the connector tests replay every venue through them, so a ccxt release that moves
// them fails there.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { VENUE_IDS, type VenueId } from "../types";
import type { CcxtModule } from "./venue-adapter";

/** Where a venue's exchange class lives, given the path `require.resolve("ccxt")` gives (dist/ccxt.cjs). */
export function venueModuleUrl(ccxtIndex: string, venue: VenueId): string {
  const packageRoot = path.dirname(path.dirname(ccxtIndex));
  return pathToFileURL(path.join(packageRoot, "js", "src", `${venue}.js`)).href;
}

async function importVenueClasses(): Promise<CcxtModule> {
  const index = createRequire(import.meta.url).resolve("ccxt");
  const classes = await Promise.all(
    VENUE_IDS.map(async (venue) => [venue, ((await import(venueModuleUrl(index, venue))) as { default: unknown }).default] as const),
  );
  return Object.fromEntries(classes) as unknown as CcxtModule;
}

let loading: Promise<CcxtModule> | undefined;

export function loadCcxt(): Promise<CcxtModule> {
  loading ??= importVenueClasses().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
