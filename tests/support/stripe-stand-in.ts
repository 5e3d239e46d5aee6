// A local stand-in for the part of Stripe's API the billing code calls, so the `stripe` package
// (unchanged, pointed here by its host/port/protocol options through STRIPE_API_BASE) is exercised
// end to end without Stripe's servers. It records every request exactly as the client sent it
// (method, path, query, form-encoded body, idempotency key) for tests to assert, and answers from
// state the test sets: subscriptions and invoices per customer. Checkout and portal session URLs
// point back here, at a page a browser can land on. Webhook payloads are signed with the package's
// own test-header helper (signedEvent).
import { readStripeConfig } from "@/lib/billing/stripe/stripe-config";
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
  /** Subscriptions by customer id, as GET /v1/subscriptions answers them. */
  subscriptions: Map<string, object[]>;
  invoices: Map<string, object[]>;
  /** While true, every API request is answered 500 (Stripe down). */
  failing: boolean;
  /** The requests to one path (e.g. "/v1/checkout/sessions"), oldest first. */
  requestsTo(path: string): RecordedRequest[];
  stop(): Promise<void>;
}

const flat = (params: URLSearchParams) => Object.fromEntries(params.entries());

export async function startStripeStandIn(): Promise<StripeStandIn> {
  let counter = 0;
  const next = (prefix: string) => `${prefix}_standin_${++counter}`;
  const customersByKey = new Map<string, object>();
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, object[]>();
  const invoices = new Map<string, object[]>();
  let base = "";

  const api = (request: RecordedRequest): { status: number; body: unknown } => {
    const { method, path, form, query } = request;
    if (method === "POST" && path === "/v1/customers") {
      const key = request.idempotencyKey;
      const existing = key ? customersByKey.get(key) : undefined;
      if (existing) return { status: 200, body: existing };
      const customer = { id: next("cus"), object: "customer", email: form.email ?? null, metadata: metadataOf(form), livemode: false };
      if (key) customersByKey.set(key, customer);
      return { status: 200, body: customer };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = next("cs_test");
      const session = {
        id,
        object: "checkout.session",
        mode: form.mode,
        customer: form.customer ?? null,
        client_reference_id: form.client_reference_id ?? null,
        metadata: metadataOf(form),
        subscription: null,
        status: "open",
        url: `${base}/checkout/${id}`,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        livemode: false,
      };
      return { status: 200, body: session };
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const id = next("bps");
      return { status: 200, body: { id, object: "billing_portal.session", customer: form.customer, return_url: form.return_url, url: `${base}/portal/${id}`, livemode: false } };
    }
    if (method === "GET" && path === "/v1/subscriptions") {
      const all = query.customer ? (subscriptions.get(query.customer) ?? []) : [...subscriptions.values()].flat();
      return { status: 200, body: list(all, path) };
    }
    if (method === "GET" && path === "/v1/invoices") {
      return { status: 200, body: list((invoices.get(query.customer ?? "") ?? []).slice(0, Number(query.limit ?? 10)), path) };
    }
    return { status: 404, body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } } };
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
      const answer = standIn.failing ? { status: 500, body: { error: { type: "api_error", message: "stand-in failing on purpose" } } } : api(request);
      res.writeHead(answer.status, { "content-type": "application/json", "request-id": `req_${counter}` });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const standIn: StripeStandIn = {
    url: base,
    requests,
    subscriptions,
    invoices,
    failing: false,
    requestsTo: (path) => requests.filter((request) => request.path === path),
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

function list(data: object[], url: string) {
  return { object: "list", data, has_more: false, url };
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
    metadata: fields.accountId ? { account_id: fields.accountId } : {},
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
  return stripeBillingProvider(config);
}
