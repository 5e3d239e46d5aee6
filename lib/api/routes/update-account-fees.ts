import { listVenueFees, updateAccountFees } from "@/lib/fees/account-fees";
import { accountFeesUpdateSchema, venueFeesSchema } from "@/lib/fees/fee-schema";
import { accountMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// PATCH /v1/account/fees — sets or clears the account's own taker fee on one or more exchanges.
export const updateAccountFeesRoute = defineRoute({
  method: "PATCH",
  path: "/v1/account/fees",
  operationId: "updateAccountFees",
  summary: "Set your taker fee on exchanges",
  description:
    "Name each exchange to change with its taker fee as a decimal from 0 to 0.01 (0.0004 is 0.04 %; more than 1 % is refused as a " +
    "percent typed where a decimal belongs), or null to fall back to the venue's base tier. Exchanges not named keep their fee. " +
    "Quotes (GET /v1/opportunities/{id}/quote, `taker_fee_source: account`) and simulations charge it from then on. The change is " +
    "recorded in the account's audit trail. Returns every exchange's fee as GET /v1/account/fees does.",
  tag: "Account",
  permission: "write",
  body: accountFeesUpdateSchema,
  data: venueFeesSchema,
  meta: accountMetaSchema,
  example: { body: { binance: 0.0004, okx: null } },
  handler: async ({ actor, body, services, origin }) => {
    await updateAccountFees(services, actor, body, origin);
    return { data: await listVenueFees(services, actor), meta: { mode: actor.mode } };
  },
});
