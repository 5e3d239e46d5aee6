// ccxt, loaded on first use and only as much of it as a venue needs. Its index imports every one
// of its ~110 exchanges and their websocket clients: ~95 MB resident and half a second once loaded.
// One exchange module (js/src/<id>.js, which imports only ccxt's base classes) is a few MB, loaded
// when its venue is first refreshed. ccxt's package exports only its index, so the modules are
// found by path from the index's location; the connector tests replay every venue through them,
// so a ccxt release that moves them fails there. Only ccxt venues come here: the HTTP venues
// (venue-adapter.ts HTTP_VENUE_IDS) are read without ccxt.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { CcxtVenueId } from "./venue-adapter";

/** The ccxt classes loaded here: each ccxt venue's, and KuCoin's spot class (its perpetuals are `kucoinfutures`'), for spot books. */
export type CcxtClassId = CcxtVenueId | "kucoin";
/** Typed as the whole table so each caller reads its own class by name; only the class asked for is present. */
export type CcxtClasses = Pick<typeof import("ccxt"), CcxtClassId>;

/** Where a venue's exchange class lives, given the path `require.resolve("ccxt")` gives (dist/ccxt.cjs). */
export function venueModuleUrl(ccxtIndex: string, venue: string): string {
  const packageRoot = path.dirname(path.dirname(ccxtIndex));
  return pathToFileURL(path.join(packageRoot, "js", "src", `${venue}.js`)).href;
}

/**
 * ccxt's index, resolved from the project directory the process runs in. Not from this module's
 * own URL: Next's bundler replaces `createRequire(import.meta.url).resolve("ccxt")` with a module
 * id of its own, where ccxt stays an external package whose files are needed by path.
 */
function ccxtIndex(): string {
  return createRequire(path.join(process.cwd(), "package.json")).resolve("ccxt");
}

async function importVenueClass(venue: CcxtClassId): Promise<CcxtClasses> {
  const index = ccxtIndex();
  // Left to node at run time: bundlers (Next's, for the quotes' book requests under its mount)
  // cannot follow an import of a computed URL, and ccxt is an external package there anyway.
  const exchangeClass = ((await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ venueModuleUrl(index, venue))) as { default: unknown }).default;
  // Typed as the whole table so each adapter's `create` reads its own class by name; only that
  // venue's entry is present, and an adapter reads no other.
  return { [venue]: exchangeClass } as unknown as CcxtClasses;
}

const loading = new Map<CcxtClassId, Promise<CcxtClasses>>();

/** The venue's ccxt exchange class, imported once per process. */
export function loadCcxt(venue: CcxtClassId): Promise<CcxtClasses> {
  let pending = loading.get(venue);
  if (!pending) {
    pending = importVenueClass(venue).catch((error: unknown) => {
      loading.delete(venue);
      throw error;
    });
    loading.set(venue, pending);
  }
  return pending;
}
