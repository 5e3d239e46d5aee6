import { listVenueFees } from "@/lib/fees/account-fees";
import { venueFeesSchema } from "@/lib/fees/fee-schema";
import { accountMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/account/fees — the taker fee quotes and simulations charge on each venue: the account's own, else the venue's base tier.
export const getAccountFeesRoute = defineRoute({
  method: "GET",
  path: "/v1/account/fees",
  operationId: "getAccountFees",
  summary: "List the taker fee charged on each exchange",
  description:
    "For each exchange with markets in the current set (and any you set a fee on): the venue's base-tier taker fee, your own fee " +
    "where you set one (Account → Trading settings, or PATCH /v1/account/fees), and `taker_fee`, the one quotes and simulations " +
    "charge. Fees belong to the account: live and test keys see the same.",
  tag: "Account",
  permission: "opportunities:read",
  data: venueFeesSchema,
  meta: accountMetaSchema,
  handler: async ({ actor, services }) => ({ data: await listVenueFees(services, actor), meta: { mode: actor.mode } }),
});
