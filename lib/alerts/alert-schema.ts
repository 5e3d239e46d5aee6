import { z } from "zod";
import { KEY_MODES } from "@/lib/keys/mode";
import { VENUE_IDS, venueIdSchema } from "@/lib/market/types";
import { maxCharacters, resourceIdParam, storableText } from "@/lib/validation";

// The shapes of alert rules, shared by /v1/alert-rules and Account → Alerts.

/**
 * What a rule watches: `opportunity` each published set's opportunities, alerting when one crosses
 * into the rule's condition (lib/alerts/alert-crossings.ts), `funding_interval` interval changes
 * (funding_interval.changed), `venue` venues going stale (venue.stale).
 */
export const ALERT_KINDS = ["opportunity", "funding_interval", "venue"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The conditions each kind may set; any other is refused, so a rule never carries one it ignores. */
export const KIND_CONDITIONS: Record<AlertKind, readonly ConditionField[]> = {
  opportunity: ["symbol", "exchanges", "min_net_apr", "min_paid_share_7d", "min_positive_hours", "min_open_interest_usd"],
  funding_interval: ["symbol", "exchanges"],
  venue: ["exchanges"],
};
export const CONDITION_FIELDS = ["symbol", "exchanges", "min_net_apr", "min_paid_share_7d", "min_positive_hours", "min_open_interest_usd"] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

export const COOLDOWN_MAX_MINUTES = 1_440;

const nameSchema = maxCharacters(storableText(z.string().trim()), 100, "At most 100 characters")
  .refine((name) => name.length > 0, "Give the rule a name")
  .describe("What the rule is for, shown in its alerts; not blank.");

const conditions = {
  symbol: z
    .string()
    .regex(/^[A-Z0-9]{1,20}$/, "Must be a base asset in capitals, such as BTC")
    .nullable()
    .optional()
    .describe("Only this base asset, e.g. BTC (kinds opportunity and funding_interval)."),
  exchanges: z
    .array(venueIdSchema, `Must be a list of exchanges: ${VENUE_IDS.join(", ")}`)
    .max(VENUE_IDS.length)
    .refine((list) => new Set(list).size === list.length, "Each exchange at most once")
    .optional()
    .describe(
      "Only within these exchanges: an opportunity's both legs, an interval change's or a venue's exchange. Empty or absent: any exchange.",
    ),
  min_net_apr: z.number().min(-1_000_000).max(1_000_000).nullable().optional().describe("Only opportunities whose `net_apr` is at least this, percent per year."),
  min_paid_share_7d: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .optional()
    .describe("Only opportunities whose `persistence.paid_share_7d` is known and at least this, 0 to 1."),
  min_positive_hours: z
    .number()
    .min(0)
    .max(720)
    .nullable()
    .optional()
    .describe("Only opportunities whose net spread has been positive for at least this many hours: from `persistence.positive_since` to the event."),
  min_open_interest_usd: z
    .number()
    .min(0)
    .max(1e15)
    .nullable()
    .optional()
    .describe("Only opportunities whose `open_interest_usd` is known and at least this, in US dollars."),
};

const endpointIdsSchema = z
  .array(storableText(z.string().max(64)))
  .max(10)
  .refine((ids) => new Set(ids).size === ids.length, "Each endpoint at most once")
  .describe("Your webhook endpoints of the same mode each alert is POSTed to (whatever event types they subscribe to). Empty: the stream and GET /v1/events only.");

const cooldownSchema = z
  .number()
  .int()
  .min(0)
  .max(COOLDOWN_MAX_MINUTES)
  .describe(
    "After an alert for a subject (an opportunity, an exchange's market, a venue), matches for the same subject are skipped this many minutes; 0: none. " +
      "An opportunity crossing into the condition within it is not alerted, and does not alert later for the same stay.",
  );

const notifyOnClearSchema = z
  .boolean()
  .describe(
    "Opportunity rules: also alert (`transition: cleared`) when an opportunity leaves the condition: a minimum no longer met by more than its " +
      "hysteresis margin (net APR 1 point or 2% of the threshold, open interest 2%, paid share 0.02), a symbol or exchange no longer matching, or " +
      "the opportunity no longer published.",
  );

export const alertRuleInputSchema = z.strictObject({
  name: nameSchema,
  kind: z
    .enum(ALERT_KINDS)
    .describe(
      "What the rule watches: `opportunity` (every published set: one alert when an opportunity crosses into the condition, quiet while it stays), " +
        "`funding_interval` (changes), `venue` (going stale).",
    ),
  ...conditions,
  endpoint_ids: endpointIdsSchema.default([]),
  cooldown_minutes: cooldownSchema.default(60),
  notify_on_clear: notifyOnClearSchema.default(false),
  enabled: z.boolean().default(true).describe("false: the rule matches nothing until enabled again."),
});
/** `notify_on_clear` may be left out by callers in code (default false), as the API's body may. */
export type AlertRuleInput = Omit<z.infer<typeof alertRuleInputSchema>, "notify_on_clear"> & { notify_on_clear?: boolean };

export const alertRuleUpdateSchema = z
  .strictObject({
    name: nameSchema.optional(),
    ...conditions,
    endpoint_ids: endpointIdsSchema.optional(),
    cooldown_minutes: cooldownSchema.optional(),
    notify_on_clear: notifyOnClearSchema.optional(),
    enabled: z.boolean().optional().describe("false: the rule matches nothing until enabled again."),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), "Give at least one field to change")
  .meta({ minProperties: 1 });
export type AlertRuleUpdate = z.infer<typeof alertRuleUpdateSchema>;

export const alertRuleSchema = z.object({
  id: z.string(),
  mode: z.enum(KEY_MODES).describe("Which market it watches: live rules the live market, test rules the sandbox."),
  name: z.string(),
  kind: z.enum(ALERT_KINDS),
  symbol: z.string().nullable(),
  exchanges: z.array(z.string()),
  min_net_apr: z.number().nullable(),
  min_paid_share_7d: z.number().nullable(),
  min_positive_hours: z.number().nullable(),
  min_open_interest_usd: z.number().nullable(),
  endpoint_ids: z.array(z.string()).describe("The endpoints its alerts are POSTed to."),
  cooldown_minutes: z.number().int(),
  notify_on_clear: z.boolean(),
  enabled: z.boolean(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type AlertRuleView = z.infer<typeof alertRuleSchema>;

/** The path of the routes naming one rule. */
export const alertRuleIdParams = z.object({ id: resourceIdParam("The rule's `id`, as POST /v1/alert-rules returned it.") });

/** The `meta` of the alert rule routes. */
export const alertMetaSchema = z.object({
  mode: z.enum(KEY_MODES).describe("live for svc_sk_live_ keys, whose rules watch the live market; test for svc_sk_test_ keys, whose rules watch the sandbox."),
});
