/**
 * An amount as Stripe states it (an integer in the currency's smallest unit: cents, or whole yen)
 * written for people: "$19.00", "¥1,500". The currency's own number of decimals, as Intl knows
 * it, says how many minor units make one.
 */
export function formatMoney(minorUnits: number, currency: string): string {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** decimals);
}
