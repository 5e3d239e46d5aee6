/**
 * The screener's keyboard navigation between rows: which row a key moves the focus to, or what
 * else it does. Pure; the table applies the answer. Only keys pressed on a row itself count, so
 * typing j or k into a field inside an expanded row types them.
 */
export type RowKeyAction = { kind: "focus"; index: number } | { kind: "open" } | { kind: "toggle" } | null;

export function rowKeyAction(key: string, current: number, count: number): RowKeyAction {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
    case "j":
      return { kind: "focus", index: Math.min(count - 1, current + 1) };
    case "ArrowUp":
    case "k":
      return { kind: "focus", index: Math.max(0, current - 1) };
    case "Home":
      return { kind: "focus", index: 0 };
    case "End":
      return { kind: "focus", index: count - 1 };
    case "Enter":
      return { kind: "open" };
    case " ":
      return { kind: "toggle" };
    default:
      return null;
  }
}
