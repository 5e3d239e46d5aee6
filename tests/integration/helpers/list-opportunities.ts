import { expect } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import type { Opportunity } from "@/lib/market/model/types";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { expectEnvelope } from "./api-envelope";

/**
 * GET /v1/opportunities`query` with a fresh Pro key, through a fresh app on `db` (its own in-memory
 * copy of the published set): the well-formed 200 envelope's items and meta.
 */
export async function listOpportunitiesAsPro(db: Db, query: string): Promise<{ items: Opportunity[]; meta: Record<string, unknown> }> {
  const services = createAppServices(async () => db);
  try {
    const user = await createUser(db, "pro");
    const { secret } = await createKeyFor(db, user.id);
    const response = await createApiApp(() => services).fetch(
      new Request(`http://localhost/v1/opportunities${query}`, { headers: { Authorization: `Bearer ${secret}` } }),
    );
    const envelope = expectEnvelope(response.status, response.headers, await response.text(), query);
    expect(response.status).toBe(200);
    if (envelope.kind !== "success") throw new Error(`expected success, got ${response.status}`);
    return { items: (envelope.data as { items: Opportunity[] }).items, meta: envelope.meta };
  } finally {
    await services.stopRecorders();
  }
}
