import { afterAll, beforeAll, beforeEach } from "vitest";
import type { StripeBillingProvider } from "@/lib/billing/stripe/stripe-provider";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { standInProvider, startStripeStandIn, type StripeStandIn } from "./stripe-stand-in";
import { createTestDatabase } from "./test-database";

export interface StripeTestBed {
  standIn: StripeStandIn;
  database: OpenDatabase;
  db: Db;
  provider: StripeBillingProvider;
  /** The requests the stand-in receives from this call on, read when the returned function is called. */
  sentFrom(): () => StripeStandIn["requests"];
}

/**
 * A test file's Stripe stand-in and fresh database, with a provider configured against the stand-in:
 * started before the file's tests, stopped after them, the stand-in answering again before each
 * test. The fields are filled in by the time the file's own beforeAll hooks run.
 */
export function stripeTestBedForFile(settings: Parameters<typeof standInProvider>[1]): StripeTestBed {
  const bed = {
    sentFrom() {
      const start = bed.standIn.requests.length;
      return () => bed.standIn.requests.slice(start);
    },
  } as StripeTestBed;
  beforeAll(async () => {
    [bed.standIn, bed.database] = await Promise.all([startStripeStandIn(), createTestDatabase()]);
    bed.db = bed.database.db;
    bed.provider = standInProvider(bed.standIn, settings);
  });
  afterAll(async () => {
    await bed.database?.close();
    await bed.standIn?.stop();
  });
  beforeEach(() => {
    if (bed.standIn) bed.standIn.failing = false;
  });
  return bed;
}
