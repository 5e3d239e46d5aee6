import { z } from "zod";
import type { RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Tier } from "@/lib/keys/permissions";
import type { StripeBillingProvider } from "./stripe-provider";
import { isUniqueViolation, syncStripeCustomer, type CustomerLink } from "./sync-customer";
import { logger } from "@/lib/observability/logger";

const log = logger("billing");

export interface WebhookOutcome {
  event_id: string;
  type: string;
  /** processed: the account was synced; duplicate: this event id was processed before; stale: a later read won; ignored: nothing to do. */
  result: "processed" | "duplicate" | "stale" | "ignored";
  tier?: Tier;
}

/**
 * One webhook delivery: the signature is checked on the raw body before anything is read from it
 * (a bad or missing one is a 400 and changes nothing), then the account the event is about is
 * synced with Stripe. An error after the check is thrown, so Stripe sees a 500 and delivers the
 * event again later; the event's id is stored only with a successful sync.
 */
export async function handleStripeWebhook(
  db: Db,
  provider: StripeBillingProvider,
  rawBody: string,
  signature: string | null,
  origin: RequestOrigin,
): Promise<WebhookOutcome> {
  if (!signature) throw new AppError("VALIDATION_ERROR", "Missing Stripe-Signature header");
  const client = await provider.client();
  let parsed: unknown;
  try {
    parsed = client.webhooks.constructEvent(rawBody, signature, provider.config.webhookSecret);
  } catch (error) {
    if ((error as { type?: unknown }).type === "StripeSignatureVerificationError") throw new AppError("VALIDATION_ERROR", "Invalid Stripe-Signature");
    // Signed, so Stripe's (or whoever holds the secret), but not JSON.
    throw malformed("the body is not JSON", rawBody.slice(0, 100));
  }
  // Signed is not well-formed: every field read below is checked first, so a malformed event is
  // a 400 that says what is wrong (and is logged), never a 500 Stripe would retry for three days.
  const checked = stripeEventSchema.safeParse(parsed);
  if (!checked.success) throw malformed(describeIssue(checked.error), (parsed as { id?: unknown } | null)?.id);
  const event = checked.data;
  const seen = { event_id: event.id, type: event.type };
  const subject = subjectOf(event);
  if (!subject) return { ...seen, result: "ignored" };
  if (await db.stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return { ...seen, result: "duplicate" };

  const link = await accountOf(db, subject);
  if (!link) {
    // A customer no account is linked to (created in the Dashboard, or another application's on the
    // same Stripe account): recorded, so a redelivery is not looked at again.
    log.warn({ event: event.id, type: event.type }, `Stripe event ${event.id} (${event.type}) names no account of this service; ignored`);
    await db.stripeEvent.create({ data: { id: event.id, type: event.type } }).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error; // the same delivery, twice at once
    });
    return { ...seen, result: "ignored" };
  }
  const outcome = await syncStripeCustomer(db, provider, link, {
    event: { id: event.id, type: event.type, created: new Date(event.created * 1000) },
    reason: `Stripe ${event.type}`,
    origin,
  });
  if (outcome.kind === "applied") return { ...seen, result: "processed", tier: outcome.tier };
  return { ...seen, result: outcome.kind };
}

/** The fields of a Checkout Session, Subscription or Invoice that name who the event is about. */
const eventObjectSchema = z.looseObject({
  customer: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]).nullable().optional(),
  client_reference_id: z.string().min(1).nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
type EventObject = z.infer<typeof eventObjectSchema>;

/** What the service reads of any event: the rest of Stripe's fields pass through unread. */
const stripeEventSchema = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1),
  created: z.number().int().nonnegative(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/**
 * The types the service handles: what the webhook endpoint subscribes to in Stripe (README,
 * "Stripe"). Any other type is acknowledged and ignored.
 */
const HANDLED_TYPES = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
]);

/** The object of an event the service handles, checked; null for any other type. */
function subjectOf(event: z.infer<typeof stripeEventSchema>): EventObject | null {
  if (!HANDLED_TYPES.has(event.type)) return null;
  const checked = eventObjectSchema.safeParse(event.data.object);
  if (!checked.success) throw malformed(describeIssue(checked.error, "data.object"), event.id);
  return checked.data;
}

function describeIssue(error: z.ZodError, under?: string): string {
  const issue = error.issues[0]!;
  const path = [...(under ? [under] : []), ...issue.path.map(String)].join(".");
  return `${path || "the event"}: ${issue.message}`;
}

/** A 400 for a signed event whose content is not what Stripe sends, logged for the operator. */
function malformed(problem: string, id: unknown): AppError {
  log.warn(`Stripe webhook refused: signed event ${typeof id === "string" ? id : "(no id)"} is malformed (${problem})`);
  return new AppError("VALIDATION_ERROR", `Malformed Stripe event: ${problem}`);
}

/**
 * The account an event is about: through the stored customer id, which Checkout always has
 * (lib/billing/stripe/stripe-checkout.ts creates the customer first). Failing that, a Checkout
 * Session's client_reference_id or the account_id the service puts in metadata link the customer
 * to that account, if the account has no customer yet.
 */
async function accountOf(db: Db, object: EventObject): Promise<CustomerLink | null> {
  const customerId = typeof object.customer === "string" ? object.customer : (object.customer?.id ?? null);
  if (!customerId) return null;
  const stored = await db.stripeCustomer.findUnique({ where: { customerId }, select: { userId: true } });
  if (stored) return { userId: stored.userId, customerId };
  const accountId = object.client_reference_id ?? object.metadata?.account_id;
  if (!accountId) return null;
  const user = await db.user.findUnique({ where: { id: accountId }, select: { id: true, stripeCustomer: { select: { customerId: true } } } });
  if (!user || user.stripeCustomer) return null;
  await db.stripeCustomer.create({ data: { userId: user.id, customerId } });
  return { userId: user.id, customerId };
}
