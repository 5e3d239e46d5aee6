import { useCallback, useSyncExternalStore } from "react";
import { DEFAULT_PREFS, parsePrefs, serialisePrefs, type ScreenerPrefs } from "@/lib/screener/screener-prefs";

/** The one localStorage key the screener writes (the page says its choices stay in this browser). */
const KEY = "fods.screener.prefs";
const CHANGED = "fods-screener-prefs";

function stored(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    // Storage refused (private mode, a policy): the defaults, and saving does nothing.
    return null;
  }
}

// useSyncExternalStore wants the same object while the stored text is the same.
let cached: { raw: string | null; prefs: ScreenerPrefs } | undefined;
function snapshot(): ScreenerPrefs {
  const raw = stored();
  if (cached?.raw !== raw) cached = { raw, prefs: parsePrefs(raw) };
  return cached.prefs;
}

function subscribe(onChange: () => void): () => void {
  // Another tab's change arrives as "storage", this tab's own as CHANGED.
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/**
 * The browser's screener preferences and a setter. The server renders the defaults (it cannot
 * read localStorage), and the browser's own replace them once hydrated.
 */
export function useScreenerPrefs(): [ScreenerPrefs, (change: Partial<ScreenerPrefs>) => void] {
  const prefs = useSyncExternalStore(subscribe, snapshot, () => DEFAULT_PREFS);
  const update = useCallback((change: Partial<ScreenerPrefs>) => {
    try {
      window.localStorage.setItem(KEY, serialisePrefs({ ...snapshot(), ...change }));
    } catch {
      return;
    }
    window.dispatchEvent(new Event(CHANGED));
  }, []);
  return [prefs, update];
}

/** Read once, outside React: whether saved filters exist for a bare /opportunities to open with. */
export function savedFilters(): string {
  return snapshot().filters;
}
