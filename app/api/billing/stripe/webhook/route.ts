// POST /api/billing/stripe/webhook — Stripe's event deliveries: signature checked on the raw body, then the account synced.
// Not behind withSession: Stripe has no session and posts from its own origin; the signature is
// what authenticates it.
import { requestOrigin } from "@/lib/audit";
import { jsonError, jsonSuccess } from "@/lib/api/respond";
import { newRequestId } from "@/lib/api/request-id";
import { currentRequestContext } from "@/lib/observability/request-context";
import { billingProvider } from "@/lib/billing/billing-provider";
import { handleStripeWebhook } from "@/lib/billing/stripe/stripe-webhook";
import { isStripeProvider } from "@/lib/billing/stripe/stripe-provider";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";

export async function POST(request: Request): Promise<Response> {
  // The id server.ts's listener gave the request, so the answer names the one its log lines carry.
  const requestId = currentRequestContext()?.requestId ?? newRequestId();
  try {
    // The signature covers the exact bytes Stripe sent: read them before anything parses them.
    const rawBody = await request.text();
    const provider = billingProvider();
    if (!isStripeProvider(provider)) throw new AppError("NOT_FOUND", "Stripe billing is not configured");
    const outcome = await handleStripeWebhook(await getDb(), provider, rawBody, request.headers.get("stripe-signature"), requestOrigin(request.headers));
    return jsonSuccess(outcome, requestId);
  } catch (error) {
    return jsonError(error, requestId);
  }
}
