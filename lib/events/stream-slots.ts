/**
 * The open streams of each account in this process, so a tier's cap on concurrent streams holds.
 * Counted per process: behind N servers an account may hold up to N times its cap (docs/decisions/scale-out.md).
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();
  private count = 0;

  /** A slot for one more stream of `account`, or null when it holds `cap` already; the answer's function frees it (once). */
  acquire(account: string, cap: number): (() => void) | null {
    const held = this.open.get(account) ?? 0;
    if (held >= cap) return null;
    this.open.set(account, held + 1);
    this.count++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count--;
      const left = (this.open.get(account) ?? 1) - 1;
      if (left <= 0) this.open.delete(account);
      else this.open.set(account, left);
    };
  }

  /** How many streams are open here, every account's. */
  total(): number {
    return this.count;
  }

  /** How many streams `account` holds open here. */
  held(account: string): number {
    return this.open.get(account) ?? 0;
  }
}
