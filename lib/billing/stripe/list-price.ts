import type { Plan } from "@/lib/plans";

/** The fields of a Stripe Price that say what a subscription to it charges. */
export interface StripePriceTerms {
  id: string;
  currency: string;
  unit_amount: number | null;
  recurring: { interval: string; interval_count: number } | null;
}

/**
 * How Stripe's price differs from the plan's list price (US dollars a month, the amount the pages
 * show), or null when it charges exactly that. A price in another currency, per year, or of another
 * amount would charge what no page said, so checkout refuses it rather than sell it.
 */
export function listPriceMismatch(plan: Pick<Plan, "name" | "price">, price: StripePriceTerms): string | null {
  if (!plan.price) return `${plan.name} is not sold`;
  const cents = plan.price.usdPerMonth * 100;
  const { recurring } = price;
  const charges =
    price.currency.toLowerCase() === "usd" && price.unit_amount === cents && recurring !== null && recurring.interval === "month" && recurring.interval_count === 1;
  if (charges) return null;
  const actual = `${price.currency.toUpperCase()} ${price.unit_amount ?? "(no fixed amount)"} cents every ${
    recurring ? `${recurring.interval_count} ${recurring.interval}` : "(not recurring)"
  }`;
  return `Stripe price ${price.id} charges ${actual}, but the ${plan.name} plan's list price is USD ${cents} cents every 1 month`;
}
