// Venue replays at benchmark scale: each venue's recorded (or documented) answers with its BTC
// market cloned into hundreds of synthetic assets, so a replayed round parses as many markets per
// venue as a live one does, in every venue's own format, through the real connectors.
import type { ReplayRoute } from "@/lib/market/venues/replay-fetch";

/** How a venue spells the template asset: BitMEX calls bitcoin XBT. */
const TEMPLATE = /BTC|XBT/g;
const HAS_TEMPLATE = /BTC|XBT/;
/** Numeric market ids that join one payload to another (Lighter's `market_id`): each clone gets its own. */
const MARKET_NUMBER = /^(market_id|market_index|marketIndex)$/;
/**
 * The same as digit strings: edgeX's `contractId` joins its metadata to its funding rows (which
 * name no asset), and a contract's `baseCoinId` its coin's `coinId` (the quote coin, never cloned,
 * keeps its id). An entry carrying a template entry's id is a template entry too.
 */
const MARKET_ID_TEXT = /^(contractId|coinId|baseCoinId)$/;
/** Funding-rate fields, varied per clone so the assets rank apart (never interval or interest fields). */
const RATE_FIELD = /^(last|current|predicted|est|next|expected)?_?funding_?(fee_?)?rate$/i;

/** `count` synthetic base assets: `A0000`, `A0001`, … (letters first, so no venue reads a multiplier). */
export function syntheticBases(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `A${String(i).padStart(4, "0")}`);
}

/**
 * The routes with every template (BTC) entry of every list cloned once per base; a route asking
 * about the template market itself (GRVT's one ticker per instrument) is cloned once per base too.
 */
export function widenRoutes(routes: readonly ReplayRoute[], bases: readonly string[]): ReplayRoute[] {
  const bodies = routes.map((route) => ("body" in route.reply ? (typeof route.reply.body === "string" ? (JSON.parse(route.reply.body) as unknown) : route.reply.body) : undefined));
  const ids = new Set<string>();
  for (const body of bodies) collectTemplateIds(body, ids);
  // A list of lists naming the template (Bitfinex's `conf` answer: lists of pairs) is widened
  // inside, not cloned whole: only a row is a template entry.
  const isTemplate = (item: unknown) =>
    typeof item === "object" && item !== null && !isListOfTemplateRows(item) && (HAS_TEMPLATE.test(JSON.stringify(item)) || carriesId(item, ids));
  return routes.flatMap((route, i) => {
    if (!("body" in route.reply)) return [route];
    const body = bodies[i];
    if (HAS_TEMPLATE.test(JSON.stringify([route.query ?? {}, route.body ?? {}]))) {
      const perMarket = (base: string, k: number): ReplayRoute => ({
        ...route,
        query: clone(route.query, base, k) as ReplayRoute["query"],
        body: clone(route.body, base, k) as ReplayRoute["body"],
        reply: { ...route.reply, body: JSON.stringify(clone(body, base, k)) },
      });
      return [route, ...bases.map(perMarket)];
    }
    return [{ ...route, reply: { ...route.reply, body: JSON.stringify(widen(body, bases, isTemplate)) } }];
  });
}

/** The MARKET_ID_TEXT ids of the entries that name the template asset, anywhere in `value`. */
function collectTemplateIds(value: unknown, ids: Set<string>): void {
  if (typeof value !== "object" || value === null) return;
  if (!Array.isArray(value) && HAS_TEMPLATE.test(JSON.stringify(value))) {
    for (const [key, item] of Object.entries(value)) if (MARKET_ID_TEXT.test(key) && typeof item === "string") ids.add(item);
  }
  for (const item of Object.values(value)) collectTemplateIds(item, ids);
}

function isListOfTemplateRows(item: object): boolean {
  return Array.isArray(item) && item.some((element) => Array.isArray(element) && HAS_TEMPLATE.test(JSON.stringify(element)));
}

function carriesId(item: object, ids: ReadonlySet<string>): boolean {
  return Object.entries(item).some(([key, value]) => MARKET_ID_TEXT.test(key) && typeof value === "string" && ids.has(value));
}

function widen(value: unknown, bases: readonly string[], isTemplate: (item: unknown) => boolean): unknown {
  if (Array.isArray(value)) {
    const aligned = widenAligned(value, bases);
    if (aligned) return aligned;
    const templates = value.filter(isTemplate);
    const kept = value.map((item) => (templates.includes(item) ? item : widen(item, bases, isTemplate)));
    return [...kept, ...bases.flatMap((base, k) => templates.map((item) => clone(item, base, k)))];
  }
  if (typeof value === "object" && value !== null) {
    // Maps keyed by market (dYdX's `markets: {"BTC-USD": {...}}`) clone their template entries too.
    const entries = Object.entries(value);
    const templates = entries.filter(([key, item]) => HAS_TEMPLATE.test(key) && typeof item === "object" && item !== null);
    const kept = entries.map(([key, item]): [string, unknown] => [key, templates.some(([name]) => name === key) ? item : widen(item, bases, isTemplate)]);
    const cloned = bases.flatMap((base, k) => templates.map(([key, item]): [string, unknown] => [key.replace(TEMPLATE, base), clone(item, base, k)]));
    return Object.fromEntries([...kept, ...cloned]);
  }
  return value;
}

/**
 * Hyperliquid's `metaAndAssetCtxs` is `[{universe: [...]}, [ctx, ...]]`, the two lists aligned by
 * position and only the first naming the coin: each cloned universe entry gets its context cloned
 * at the same position.
 */
function widenAligned(value: unknown[], bases: readonly string[]): unknown[] | undefined {
  const [meta, contexts] = value;
  const universe = (meta as { universe?: unknown } | undefined)?.universe;
  if (value.length !== 2 || !Array.isArray(universe) || !Array.isArray(contexts)) return undefined;
  const positions = universe.flatMap((item, i) => (HAS_TEMPLATE.test(JSON.stringify(item)) ? [i] : []));
  const clonedUniverse = bases.flatMap((base, k) => positions.map((i) => clone(universe[i], base, k)));
  const clonedContexts = bases.flatMap((base, k) => positions.map((i) => clone(contexts[i], base, k)));
  return [{ ...(meta as object), universe: [...universe, ...clonedUniverse] }, [...contexts, ...clonedContexts]];
}

function clone(value: unknown, base: string, k: number, key = ""): unknown {
  if (typeof value === "string") {
    if (RATE_FIELD.test(key) && value.trim() !== "" && Number.isFinite(Number(value))) return String(vary(Number(value), k));
    if (MARKET_ID_TEXT.test(key) && /^\d+$/.test(value)) return String(Number(value) + 10_000_000 * (k + 1));
    return value.replace(TEMPLATE, base);
  }
  if (typeof value === "number") return RATE_FIELD.test(key) ? vary(value, k) : MARKET_NUMBER.test(key) ? value + 10_000 * (k + 1) : value;
  if (Array.isArray(value)) return value.map((item) => clone(item, base, k));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, clone(item, base, k, name)]));
  }
  return value;
}

/** A deterministic spread of rates around the template's, both signs, so pairs rank apart. */
function vary(rate: number, k: number): number {
  const factor = ((k * 37) % 101) / 50 - 1; // −1 … +1
  return Number((rate * (1 + factor) + factor * 0.00005).toPrecision(6));
}
