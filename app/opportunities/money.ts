import { roundTo } from "@/lib/round";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** US dollars with an explicit sign for P&L: "+$12.34", "−$5.00", "$0.00". */
export function formatSignedUsd(value: number): string {
  const rounded = roundTo(value, 2);
  if (rounded === 0) return usd.format(0);
  return `${rounded > 0 ? "+" : "−"}${usd.format(Math.abs(rounded))}`;
}

/** US dollars without a sign, for notionals. */
export function formatUsd(value: number): string {
  return usd.format(value);
}
