import { z } from "zod";
import type { Actor } from "@/lib/actor";
import { alertMetaSchema, alertRuleIdParams } from "@/lib/alerts/alert-schema";
import type { AppServices } from "@/lib/app-services";
import type { RequestOrigin } from "@/lib/audit";
import { type Page, pageFrom, pageOf, type PageQuery } from "@/lib/pagination";
import { pageParams } from "@/lib/query-params";
import {
  pageSchema,
  portfolioMetaSchema,
  positionIdParams,
  simulationIdParams,
  simulationMetaSchema,
  webhookEndpointIdParams,
  webhookMetaSchema,
} from "../openapi/shared-schemas";

/**
 * A resource an account keeps apart per key mode (live vs test). Its routes name one by the path's
 * `id`, answer `meta.mode` as `meta` describes it, and their documented examples act on the one
 * the `createdBy` operation's example creates (`exampleId` is the placeholder for its id).
 */
export interface ModeResource<P extends z.ZodObject = z.ZodObject> {
  idParams: P;
  meta: z.ZodObject;
  exampleId: string;
  createdBy: string;
  /** What one is called in the answer of its DELETE, e.g. "rule" ("The deleted rule's id."). */
  noun: string;
}

export const alertRules = {
  idParams: alertRuleIdParams,
  meta: alertMetaSchema,
  exampleId: "ALERT_RULE_ID",
  createdBy: "createAlertRule",
  noun: "rule",
} satisfies ModeResource;

export const webhookEndpoints = {
  idParams: webhookEndpointIdParams,
  meta: webhookMetaSchema,
  exampleId: "WEBHOOK_ENDPOINT_ID",
  createdBy: "createWebhookEndpoint",
  noun: "endpoint",
} satisfies ModeResource;

export const positions = {
  idParams: positionIdParams,
  meta: portfolioMetaSchema,
  exampleId: "POSITION_ID",
  createdBy: "createPortfolioPosition",
  noun: "position",
} satisfies ModeResource;

export const simulations = {
  idParams: simulationIdParams,
  meta: simulationMetaSchema,
  exampleId: "SIMULATION_ID",
  createdBy: "createSimulation",
  noun: "simulation",
} satisfies ModeResource;

/** The `params`, `meta` and `example` of a route acting on one of `resource`; the example sends `body` when given. */
export function oneOf<P extends z.ZodObject>(resource: ModeResource<P>, body?: Record<string, unknown>) {
  const params = { id: resource.exampleId };
  return {
    params: resource.idParams,
    meta: resource.meta,
    example: body ? { params, body, createdBy: resource.createdBy } : { params, createdBy: resource.createdBy },
  };
}

/** A handler answering what `act` returns as `data`, with the key's mode (whose resources these are) as `meta.mode`. */
export function inMode<I extends { actor: Pick<Actor, "mode"> }>(act: (input: I) => Promise<unknown>) {
  return async (input: I) => ({ data: await act(input), meta: { mode: input.actor.mode } });
}

type ListInput = { actor: Actor; query: PageQuery; services: AppServices };

/** The `query` (`limit` at most 100, default 20; `offset`), `data`, `meta` and handler of a route listing `resource`. */
function listFields(resource: ModeResource, item: z.ZodType, page: (input: ListInput) => Promise<Page<unknown>>) {
  const query = z.strictObject({ ...pageParams(100, 20) });
  return { query, data: pageSchema(item, query), meta: resource.meta, handler: inMode(page) };
}

/** A list route over every one of `resource` the account has in the key's mode: `list` reads them all (an account keeps few), paged here. */
export function listOf<T>(resource: ModeResource, item: z.ZodType, list: (services: AppServices, actor: Actor) => Promise<readonly T[]>) {
  return listFields(resource, item, async ({ actor, query, services }) => pageOf(await list(services, actor), query));
}

/** A list route over `resource` whose `list` reads one page itself, with the total it was cut from. */
export function pagedListOf<T>(
  resource: ModeResource,
  item: z.ZodType,
  list: (services: AppServices, actor: Actor, page: PageQuery) => Promise<{ items: T[]; total: number }>,
) {
  return listFields(resource, item, async ({ actor, query, services }) => {
    const { items, total } = await list(services, actor, query);
    return pageFrom(items, total, query);
  });
}

/** What the handler of a route on one of a resource is given; `B` is the route's body schema, if it reads one. */
export type OneInput<B extends z.ZodType | undefined = undefined> = {
  actor: Actor;
  params: { id: string };
  body: B extends z.ZodType ? z.output<B> : undefined;
  services: AppServices;
  origin: RequestOrigin;
};

/** The fields of a GET of one of `resource` by id: `get` reads it (404 when the account has none of that id in the key's mode). */
export function getOne<P extends z.ZodObject>(resource: ModeResource<P>, item: z.ZodType, get: (services: AppServices, actor: Actor, id: string) => Promise<unknown>) {
  return {
    ...oneOf(resource),
    data: item,
    handler: inMode(({ actor, params, services }: OneInput) => get(services, actor, params.id)),
  };
}

/** The fields of a PATCH of one of `resource`: `update` applies the parsed `body` and returns it as it is now; the example sends `exampleBody`. */
export function updateOne<P extends z.ZodObject, B extends z.ZodType>(
  resource: ModeResource<P>,
  body: B,
  item: z.ZodType,
  exampleBody: Record<string, unknown>,
  update: (services: AppServices, actor: Actor, id: string, body: z.output<B>, origin: RequestOrigin) => Promise<unknown>,
) {
  return {
    ...oneOf(resource, exampleBody),
    body,
    data: item,
    handler: inMode(({ actor, body: parsed, params, services, origin }: Omit<OneInput, "body"> & { body: z.output<B> }) => update(services, actor, params.id, parsed, origin)),
  };
}

/** The fields of a DELETE of one of `resource`: `remove` deletes it, and the answer names the deleted id. */
export function deleteOne<P extends z.ZodObject>(
  resource: ModeResource<P>,
  remove: (services: AppServices, actor: Actor, id: string, origin: RequestOrigin) => Promise<{ id: string; deleted: true }>,
) {
  return {
    ...oneOf(resource),
    data: z.object({ id: z.string().describe(`The deleted ${resource.noun}'s id.`), deleted: z.literal(true) }),
    handler: inMode(({ actor, params, services, origin }: OneInput) => remove(services, actor, params.id, origin)),
  };
}
