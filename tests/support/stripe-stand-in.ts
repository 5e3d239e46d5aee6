// A local stand-in for the part of Stripe's API the billing code calls, so the `stripe` package
// (unchanged, pointed here by its host/port/protocol options through STRIPE_API_BASE) is exercised
// end to end without Stripe's servers. It records every request exactly as the client sent it
// (method, path, query, form-encoded body, idempotency key) for tests to assert, and answers from
// state the test sets: subscriptions and invoices per customer. It refuses what Stripe refuses
// (an unknown parameter, a missing required one, an idempotency key reused with other parameters,
// in Stripe's error shape) and pages lists as Stripe does (`limit` 10 by default, at most 100,
// `starting_after`, `has_more`), so code that would fail or stop at one page against Stripe fails
// here too. Checkout and portal session URLs point back here, at a page a browser can land on.
// Webhook payloads are signed with the package's own test-header helper (signedEvent).
import type { StripePriceTerms } from "@/lib/billing/stripe/list-price";
import { readStripeConfig } from "@/lib/billing/stripe/stripe-config";
import type { Tier } from "@/lib/keys/permissions";
import { planOf } from "@/lib/plans";
import { stripeBillingProvider, type StripeBillingProvider } from "@/lib/billing/stripe/stripe-provider";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The form-encoded body, keys as sent (`line_items[0][price]`). */
  form: Record<string, string>;
  idempotencyKey: string | null;
  authorization: string | null;
}

export interface StripeStandIn {
  /** For STRIPE_API_BASE: http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** Subscriptions by customer id, as GET /v1/subscriptions answers them (in this order, 10 to a page unless `limit`). */
  subscriptions: Map<string, object[]>;
  invoices: Map<string, object[]>;
  /** Checkout Sessions by id, as created (status open, complete or expired). */
  checkoutSessions: Map<string, StandInCheckoutSession>;
  /** Prices by id, as GET /v1/prices/:id answers them; set with sellAtListPrices or directly. */
  prices: Map<string, StripePriceTerms>;
  /** Makes each price id a monthly USD price at its plan's list price, as an operator sets them up. */
  sellAtListPrices(priceIds: Partial<Record<Tier, string>>): void;
  /** While true, every API request is answered 500 (Stripe down). */
  failing: boolean;
  /** While false, portal sessions are refused as Stripe refuses them before the portal is saved in the Dashboard. */
  portalConfigured: boolean;
  /** The requests to one path (e.g. "/v1/checkout/sessions"), oldest first. */
  requestsTo(path: string): RecordedRequest[];
  /** What Stripe does when the customer pays a Checkout Session: completes it and starts an active subscription for its price. */
  completeCheckout(sessionId: string): object;
  stop(): Promise<void>;
}

export interface StandInCheckoutSession {
  id: string;
  object: "checkout.session";
  status: "open" | "complete" | "expired";
  customer: string | null;
  price: string | null;
  metadata: Record<string, string>;
  subscription: string | null;
  expires_at: number;
  url: string;
  [field: string]: unknown;
}

const flat = (params: URLSearchParams) => Object.fromEntries(params.entries());

interface Answer {
  status: number;
  body: unknown;
}

/** Stripe's error shape: `{"error":{"type","code","message","param"}}`. */
function stripeError(status: number, type: string, message: string, extra: { code?: string; param?: string } = {}): Answer {
  return { status, body: { error: { type, message, ...extra } } };
}

const invalid = (message: string, extra: { code?: string; param?: string } = {}) => stripeError(400, "invalid_request_error", message, extra);
const missing = (param: string) => invalid(`Missing required param: ${param}.`, { code: "parameter_missing", param });
const noSuch = (object: string, id: string, param = "id") => stripeError(404, "invalid_request_error", `No such ${object}: '${id}'`, { code: "resource_missing", param });

/**
 * The parameters each endpoint accepts, as patterns over the form keys the client sends
 * (`line_items[0][price]`); anything else is refused as Stripe refuses an unknown parameter.
 */
const ACCEPTED: Record<string, RegExp[]> = {
  "POST /v1/customers": [/^email$/, /^name$/, /^description$/, /^metadata\[[^\]]+\]$/],
  "POST /v1/checkout/sessions": [
    /^mode$/,
    /^customer$/,
    /^client_reference_id$/,
    /^line_items\[\d+\]\[(price|quantity)\]$/,
    /^metadata\[[^\]]+\]$/,
    /^subscription_data\[metadata\]\[[^\]]+\]$/,
    /^success_url$/,
    /^cancel_url$/,
    /^expires_at$/,
  ],
  "POST /v1/checkout/sessions/:id/expire": [],
  "GET /v1/checkout/sessions/:id": [],
  "GET /v1/prices/:id": [],
  "POST /v1/billing_portal/sessions": [/^customer$/, /^return_url$/, /^configuration$/],
  "GET /v1/subscriptions": [/^customer$/, /^status$/, /^price$/, /^limit$/, /^starting_after$/, /^ending_before$/],
  "POST /v1/subscriptions": [
    /^customer$/,
    /^items\[\d+\]\[(price|quantity)\]$/,
    /^discounts\[\d+\]\[coupon\]$/,
    /^metadata\[[^\]]+\]$/,
    /^collection_method$/,
    /^days_until_due$/,
    /^trial_end$/,
    /^description$/,
  ],
  "DELETE /v1/subscriptions/:id": [/^prorate$/, /^invoice_now$/, /^cancellation_details\[(comment|feedback)\]$/],
  "POST /v1/coupons": [/^id$/, /^name$/, /^percent_off$/, /^duration$/, /^metadata\[[^\]]+\]$/],
  "GET /v1/invoices": [/^customer$/, /^subscription$/, /^status$/, /^limit$/, /^starting_after$/, /^ending_before$/],
};

const ENDED_STATUSES = new Set(["canceled", "incomplete_expired"]);

export async function startStripeStandIn(): Promise<StripeStandIn> {
  let counter = 0;
  const next = (prefix: string) => `${prefix}_standin_${++counter}`;
  /** Idempotency keys: the request they were first used with, and its answer (replayed, as Stripe does for 24 h). */
  const idempotent = new Map<string, { fingerprint: string; answer: Answer }>();
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, object[]>();
  const invoices = new Map<string, object[]>();
  const checkoutSessions = new Map<string, StandInCheckoutSession>();
  const coupons = new Map<string, object>();
  const prices = new Map<string, StripePriceTerms>();
  let base = "";

  const findSubscription = (id: string) => [...subscriptions.values()].flat().find((candidate) => (candidate as { id: string }).id === id) as Record<string, unknown> | undefined;

  const api = (request: RecordedRequest, route: string, id: string | undefined): Answer => {
    const { form, query } = request;
    const params = request.method === "GET" || request.method === "DELETE" ? query : form;
    const accepted = ACCEPTED[route];
    if (!accepted) return invalid(`Unrecognized request URL (${request.method}: ${request.path})`);
    const unknown = Object.keys(params).find((key) => !accepted.some((pattern) => pattern.test(key)));
    if (unknown) return invalid(`Received unknown parameter: ${unknown}`, { code: "parameter_unknown", param: unknown });

    switch (route) {
      case "POST /v1/customers":
        return { status: 200, body: { id: next("cus"), object: "customer", email: form.email ?? null, metadata: metadataOf(form), livemode: false } };
      case "POST /v1/checkout/sessions": {
        if (!form.mode) return missing("mode");
        if (!["payment", "setup", "subscription"].includes(form.mode)) return invalid(`Invalid mode: must be one of payment, setup, or subscription`, { param: "mode" });
        if (form.mode !== "setup" && !form["line_items[0][price]"]) return missing("line_items");
        const sessionId = next("cs_test");
        const session: StandInCheckoutSession = {
          id: sessionId,
          object: "checkout.session",
          mode: form.mode,
          customer: form.customer ?? null,
          client_reference_id: form.client_reference_id ?? null,
          metadata: metadataOf(form),
          price: form["line_items[0][price]"] ?? null,
          subscription: null,
          status: "open",
          expires_at: form.expires_at ? Number(form.expires_at) : Math.floor(Date.now() / 1000) + 24 * 60 * 60,
          url: `${base}/checkout/${sessionId}`,
          success_url: form.success_url,
          cancel_url: form.cancel_url,
          livemode: false,
        };
        checkoutSessions.set(sessionId, session);
        return { status: 200, body: session };
      }
      case "GET /v1/checkout/sessions/:id": {
        const session = checkoutSessions.get(id!);
        return session ? { status: 200, body: session } : noSuch("checkout.session", id!);
      }
      case "GET /v1/prices/:id": {
        const price = prices.get(id!);
        return price ? { status: 200, body: { object: "price", active: true, type: price.recurring ? "recurring" : "one_time", livemode: false, ...price } } : noSuch("price", id!);
      }
      case "POST /v1/checkout/sessions/:id/expire": {
        const session = checkoutSessions.get(id!);
        if (!session) return noSuch("checkout.session", id!);
        if (session.status !== "open") return invalid('Only Checkout Sessions with a status in ["open"] can be expired.', { code: "checkout_session_not_open" });
        session.status = "expired";
        session.url = "";
        return { status: 200, body: session };
      }
      case "POST /v1/billing_portal/sessions": {
        if (!form.customer) return missing("customer");
        if (!standIn.portalConfigured && !form.configuration) {
          return invalid(
            "No configuration provided and your test mode default configuration has not been created. Provide a configuration or create your default by saving your customer portal settings in test mode at https://dashboard.stripe.com/test/settings/billing/portal.",
          );
        }
        const portalId = next("bps");
        return { status: 200, body: { id: portalId, object: "billing_portal.session", customer: form.customer, return_url: form.return_url, url: `${base}/portal/${portalId}`, livemode: false } };
      }
      case "GET /v1/subscriptions": {
        const all = query.customer ? (subscriptions.get(query.customer) ?? []) : [...subscriptions.values()].flat();
        const status = query.status;
        const listed = all.filter((s) => {
          const value = (s as { status: string }).status;
          return status === "all" ? true : status ? value === status : !ENDED_STATUSES.has(value);
        });
        return page(listed, request, "subscription");
      }
      case "POST /v1/subscriptions": {
        if (!form.customer) return missing("customer");
        if (!form["items[0][price]"]) return missing("items");
        const subscription = stripeSubscription({
          id: next("sub"),
          customer: form.customer,
          price: form["items[0][price]"],
          status: form.trial_end ? "trialing" : "active",
          created: new Date(),
          metadata: metadataOf(form),
        });
        const coupon = form["discounts[0][coupon]"];
        if (coupon && !coupons.has(coupon)) return noSuch("coupon", coupon, "discounts[0][coupon]");
        Object.assign(subscription, { discounts: coupon ? [coupon] : [] });
        subscriptions.set(form.customer, [...(subscriptions.get(form.customer) ?? []), subscription]);
        return { status: 200, body: subscription };
      }
      case "DELETE /v1/subscriptions/:id": {
        const subscription = findSubscription(id!);
        if (!subscription) return noSuch("subscription", id!);
        if (ENDED_STATUSES.has(subscription.status as string)) return invalid(`A canceled subscription can only update its cancellation_details and metadata.`);
        const now = Math.floor(Date.now() / 1000);
        Object.assign(subscription, { status: "canceled", canceled_at: now, ended_at: now });
        return { status: 200, body: subscription };
      }
      case "POST /v1/coupons": {
        if (!form.duration) return missing("duration");
        if (!form.percent_off) return missing("percent_off");
        const couponId = form.id ?? next("coupon");
        if (coupons.has(couponId)) return invalid("Coupon already exists.", { code: "resource_already_exists", param: "id" });
        const coupon = { id: couponId, object: "coupon", percent_off: Number(form.percent_off), duration: form.duration, name: form.name ?? null, metadata: metadataOf(form), valid: true };
        coupons.set(couponId, coupon);
        return { status: 200, body: coupon };
      }
      case "GET /v1/invoices":
        return page(invoices.get(query.customer ?? "") ?? [], request, "invoice");
    }
    return invalid(`Unrecognized request URL (${request.method}: ${request.path})`);
  };

  /** The route an API path matches ("POST /v1/checkout/sessions/:id/expire") and the id in it. */
  const routeOf = (method: string, path: string): { route: string; id?: string } => {
    const withId = path.match(/^(\/v1\/(?:checkout\/sessions|subscriptions|prices))\/([^/]+)(\/expire)?$/);
    if (withId) return { route: `${method} ${withId[1]}/:id${withId[3] ?? ""}`, id: decodeURIComponent(withId[2]!) };
    return { route: `${method} ${path}` };
  };

  const answer = (request: RecordedRequest): Answer => {
    const { route, id } = routeOf(request.method, request.path);
    const key = request.idempotencyKey;
    if (!key || request.method === "GET") return api(request, route, id);
    const fingerprint = JSON.stringify([request.method, request.path, request.query, request.form]);
    const earlier = idempotent.get(key);
    if (earlier) {
      if (earlier.fingerprint === fingerprint) return earlier.answer;
      return stripeError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    const result = api(request, route, id);
    // Stripe keeps the outcome of a request it ran (a 400 included) under its key, not a 500's.
    if (result.status < 500) idempotent.set(key, { fingerprint, answer: result });
    return result;
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", base);
      // The pages Checkout and the portal would show; a browser sent to a session's URL lands here.
      const page = url.pathname.match(/^\/(checkout|portal)\/([\w-]+)$/);
      if (req.method === "GET" && page) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(`<!doctype html><title>Stripe ${page[1]} stand-in</title><h1>Stripe ${page[1]} stand-in</h1><p id="session">${page[2]}</p>`);
        return;
      }
      const request: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: flat(url.searchParams),
        form: flat(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))),
        idempotencyKey: (req.headers["idempotency-key"] as string | undefined) ?? null,
        authorization: req.headers.authorization ?? null,
      };
      requests.push(request);
      const result = standIn.failing ? stripeError(500, "api_error", "stand-in failing on purpose") : answer(request);
      res.writeHead(result.status, { "content-type": "application/json", "request-id": `req_${counter}` });
      res.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const standIn: StripeStandIn = {
    url: base,
    requests,
    subscriptions,
    invoices,
    checkoutSessions,
    prices,
    sellAtListPrices(priceIds) {
      for (const [tier, id] of Object.entries(priceIds) as [Tier, string][]) {
        prices.set(id, { id, currency: "usd", unit_amount: planOf(tier).price!.usdPerMonth * 100, recurring: { interval: "month", interval_count: 1 } });
      }
    },
    failing: false,
    portalConfigured: true,
    requestsTo: (path) => requests.filter((request) => request.path === path),
    completeCheckout(sessionId) {
      const session = checkoutSessions.get(sessionId);
      if (!session || session.status !== "open" || !session.customer || !session.price) throw new Error(`completeCheckout: ${sessionId} is not an open session with a customer and a price`);
      const subscription = stripeSubscription({
        id: next("sub"),
        customer: session.customer,
        price: session.price,
        status: "active",
        created: new Date(),
        accountId: session.metadata.account_id,
      });
      subscriptions.set(session.customer, [...(subscriptions.get(session.customer) ?? []), subscription]);
      Object.assign(session, { status: "complete", subscription: subscription.id, url: null });
      return subscription;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const name = key.match(/^metadata\[(.+)\]$/)?.[1];
    if (name) metadata[name] = value;
  }
  return metadata;
}

/**
 * One page of a list, as Stripe pages: `limit` 1 to 100 (default 10), `starting_after` the last id
 * of the previous page, `has_more` when more follow; the list object with the path as `url`.
 */
function page(data: object[], request: RecordedRequest, object: string): Answer {
  const { limit: rawLimit, starting_after: after } = request.query;
  const limit = rawLimit === undefined ? 10 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1) return invalid("Invalid integer: " + rawLimit, { param: "limit" });
  if (limit > 100) return invalid("This value must be less than or equal to 100.", { param: "limit" });
  let start = 0;
  if (after !== undefined) {
    const index = data.findIndex((item) => (item as { id: string }).id === after);
    if (index < 0) return invalid(`No such ${object}: '${after}'`, { code: "resource_missing", param: "starting_after" });
    start = index + 1;
  }
  const slice = data.slice(start, start + limit);
  return { status: 200, body: { object: "list", data: slice, has_more: start + limit < data.length, url: request.path } };
}

const SECONDS = (date: Date) => Math.floor(date.getTime() / 1000);

/** A subscription as Stripe's API (version 2025-03-31 and later: the period on the item) returns it. */
export function stripeSubscription(fields: {
  id: string;
  customer: string;
  price: string;
  status: string;
  created?: Date;
  currentPeriodEnd?: Date;
  cancelAtPeriodEnd?: boolean;
  cancelAt?: Date | null;
  accountId?: string;
  metadata?: Record<string, string>;
}) {
  const created = fields.created ?? new Date(Date.now() - 60_000);
  const periodEnd = fields.currentPeriodEnd ?? new Date(created.getTime() + 30 * 24 * 60 * 60 * 1000);
  return {
    id: fields.id,
    object: "subscription",
    customer: fields.customer,
    status: fields.status,
    created: SECONDS(created),
    start_date: SECONDS(created),
    cancel_at: fields.cancelAt ? SECONDS(fields.cancelAt) : null,
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    canceled_at: fields.status === "canceled" ? SECONDS(new Date()) : null,
    ended_at: fields.status === "canceled" ? SECONDS(new Date()) : null,
    metadata: { ...fields.metadata, ...(fields.accountId ? { account_id: fields.accountId } : {}) },
    livemode: false,
    items: {
      object: "list",
      has_more: false,
      data: [
        {
          id: `si_${fields.id}`,
          object: "subscription_item",
          price: { id: fields.price, object: "price", recurring: { interval: "month" } },
          quantity: 1,
          current_period_start: SECONDS(created),
          current_period_end: SECONDS(periodEnd),
        },
      ],
    },
  };
}

/** An invoice as Stripe's API returns it (only the fields the plan page reads, and its subscription). */
export function stripeInvoice(fields: { id: string; customer: string; number: string; total: number; currency?: string; status: string; created: Date; subscription?: string }) {
  return {
    id: fields.id,
    object: "invoice",
    customer: fields.customer,
    number: fields.number,
    total: fields.total,
    amount_due: fields.total,
    amount_paid: fields.status === "paid" ? fields.total : 0,
    currency: fields.currency ?? "usd",
    status: fields.status,
    created: SECONDS(fields.created),
    hosted_invoice_url: `https://invoices.example.com/i/${fields.id}`,
    parent: fields.subscription ? { type: "subscription_details", subscription_details: { subscription: fields.subscription } } : null,
    livemode: false,
  };
}

let eventCounter = 0;

/**
 * A webhook delivery: the event's JSON and its Stripe-Signature header, signed with the `stripe`
 * package's own test helper exactly as Stripe signs a delivery.
 */
export function signedEvent(
  secret: string,
  type: string,
  object: object,
  options: { id?: string; created?: Date; timestamp?: number } = {},
): { payload: string; signature: string; id: string } {
  const id = options.id ?? `evt_standin_${Date.now().toString(36)}_${++eventCounter}`;
  const payload = JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: SECONDS(options.created ?? new Date()),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
  const signature = new Stripe("sk_test_signing_only").webhooks.generateTestHeaderString({ payload, secret, timestamp: options.timestamp });
  return { payload, signature, id };
}

/** The Stripe billing provider as configured from the environment, its client pointed at the stand-in. */
export function standInProvider(
  standIn: StripeStandIn,
  settings: { secretKey: string; webhookSecret: string; pricePro: string; priceDesk: string },
): StripeBillingProvider {
  const config = readStripeConfig({
    STRIPE_SECRET_KEY: settings.secretKey,
    STRIPE_WEBHOOK_SECRET: settings.webhookSecret,
    STRIPE_PRICE_PRO: settings.pricePro,
    STRIPE_PRICE_DESK: settings.priceDesk,
    STRIPE_API_BASE: standIn.url,
  });
  if (!config) throw new Error("standInProvider: the Stripe settings are incomplete");
  standIn.sellAtListPrices(config.prices);
  return stripeBillingProvider(config);
}
