import { z } from "zod";
import { KEY_MODES } from "@/lib/keys/mode";
import { VENUE_IDS, venueIdSchema } from "@/lib/market/model/types";
import { maxCharacters, resourceIdParam, storableText, uniqueItems } from "@/lib/validation";

// The shapes of alert rules, shared by /v1/alert-rules and Account → Alerts.

/**
 * What a rule watches: `opportunity` each published set's opportunities, alerting when one crosses
 * into the rule's condition (lib/alerts/alert-crossings.ts), `funding_interval` interval changes
 * (funding_interval.changed), `venue` venues going stale (venue.stale), `carry` carry opportunities
 * opened or updated (carry_opportunity.opened / .updated).
 */
export const ALERT_KINDS = ["opportunity", "funding_interval", "venue", "carry"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The conditions each kind may set; any other is refused, so a rule never carries one it ignores. */
export const KIND_CONDITIONS: Record<AlertKind, readonly ConditionField[]> = {
  opportunity: ["symbol", "exchanges", "min_net_apr", "min_paid_share_7d", "min_positive_hours", "min_open_interest_usd"],
  funding_interval: ["symbol", "exchanges"],
  venue: ["exchanges"],
  carry: ["symbol", "exchanges", "min_net_apr"],
};
export const CONDITION_FIELDS = ["symbol", "exchanges", "min_net_apr", "min_paid_share_7d", "min_positive_hours", "min_open_interest_usd"] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

export const COOLDOWN_MAX_MINUTES = 1_440;

// Not blank as a pattern (some character that is not white space), so the document states it too.
const nameSchema = maxCharacters(storableText(z.string().min(1, "Give the rule a name").regex(/\S/, "Give the rule a name").trim()), 100, "At most 100 characters")
  .describe("What the rule is for, shown in its alerts; not blank.");

const conditions = {
  symbol: z
    .string()
    .regex(/^[A-Z0-9]{1,20}$/, "Must be a base asset in capitals, such as BTC")
    .nullable()
    .optional()
    .describe("Only this base asset, e.g. BTC (kinds opportunity, funding_interval and carry)."),
  exchanges: uniqueItems(z.array(venueIdSchema, `Must be a list of exchanges: ${VENUE_IDS.join(", ")}`).max(VENUE_IDS.length), "Each exchange at most once")
    .optional()
    .describe(
      "Only within these exchanges: an opportunity's both legs, a carry opportunity's spot and perpetual venues, an interval change's or a venue's exchange. Empty or absent: any exchange.",
    ),
  min_net_apr: z
    .number()
    .min(-1_000_000)
    .max(1_000_000)
    .nullable()
    .optional()
    .describe("Only opportunities (perp pairs or carry) whose `net_apr` is at least this, percent per year."),
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

const endpointIdsSchema = uniqueItems(z.array(storableText(z.string().max(64))).max(10), "Each endpoint at most once").describe("Your webhook endpoints of the same mode each alert is POSTed to (whatever event types they subscribe to). Empty: the stream and GET /v1/events only.");

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

const KIND_DESCRIPTION =
  "What the rule watches: `opportunity` (every published set: one alert when an opportunity crosses into the condition, quiet while it stays), " +
  "`funding_interval` (changes), `venue` (going stale), `carry` (a carry opportunity opened, or updated by at least EVENTS_NET_APR_THRESHOLD, " +
  "matching the rule: one alert per event, each carry opportunity under the rule's cool-down).";

/** What every rule has besides its name, kind and conditions. */
const ruleFields = {
  endpoint_ids: endpointIdsSchema.default([]),
  cooldown_minutes: cooldownSchema.default(60),
  notify_on_clear: notifyOnClearSchema.default(false),
  enabled: z.boolean().default(true).describe("false: the rule matches nothing until enabled again."),
};

/** A condition its kind does not use, naming it; unset (absent, null or an empty list) is fine. So is `notify_on_clear` off a kind with nothing to clear. */
function unusedConditions(rule: { kind: AlertKind; notify_on_clear?: boolean } & Partial<Record<ConditionField, unknown>>, ctx: z.RefinementCtx) {
  if (rule.notify_on_clear && rule.kind !== "opportunity") {
    ctx.addIssue({ code: "custom", path: ["notify_on_clear"], message: `A rule of kind ${rule.kind} alerts on events and has no condition to clear` });
  }
  for (const field of CONDITION_FIELDS) {
    const value = rule[field];
    const set = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null;
    if (set && !KIND_CONDITIONS[rule.kind].includes(field)) {
      ctx.addIssue({ code: "custom", path: [field], message: `A rule of kind ${rule.kind} does not use ${field}: it may set ${KIND_CONDITIONS[rule.kind].join(", ")}` });
    }
  }
}

/** The rule as one object, every condition optional: names each field at fault, where a union could only say the body matches no kind. */
const ruleFieldByField = z.strictObject({ name: nameSchema, kind: z.enum(ALERT_KINDS).describe(KIND_DESCRIPTION), ...conditions, ...ruleFields });

/**
 * One strict shape per kind, with the conditions that kind uses and the others only unset (null
 * or an empty list): the document's `oneOf` by `kind`, so a generated client or a fuzzer never
 * sends a condition the kind ignores.
 */
const ruleByKind = ALERT_KINDS.map((kind) => {
  const unused = (field: ConditionField) =>
    field === "exchanges"
      ? z.array(venueIdSchema).max(0).optional().describe(`Not used by kind ${kind}: absent or empty.`)
      : z.null().optional().describe(`Not used by kind ${kind}: absent or null.`);
  const kindConditions = Object.fromEntries(CONDITION_FIELDS.map((field) => [field, KIND_CONDITIONS[kind].includes(field) ? conditions[field] : unused(field)]));
  // Only an opportunity rule has a condition to leave; the other kinds alert on events.
  const notifyOnClear = kind === "opportunity" ? ruleFields.notify_on_clear : z.literal(false).default(false).describe(`Not used by kind ${kind}: absent or false.`);
  return z
    .strictObject({ name: nameSchema, kind: z.literal(kind).describe(KIND_DESCRIPTION), ...kindConditions, ...ruleFields, notify_on_clear: notifyOnClear })
    .describe(`A rule of kind ${kind}: ${KIND_CONDITIONS[kind].join(", ")}.`);
}) as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]];

/**
 * The body of POST /v1/alert-rules: checked field by field first (so a 400 names each field at
 * fault, a condition the kind does not use among them), then parsed and documented as one shape
 * per kind. Handlers get the field-by-field type.
 */
export const alertRuleInputSchema = z
  .preprocess((input, ctx) => {
    const checked = ruleFieldByField.superRefine(unusedConditions).safeParse(input);
    if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ ...issue });
    return input;
  }, z.xor(ruleByKind))
  .transform((body) => body as unknown as z.output<typeof ruleFieldByField>)
  .meta({ type: "object" });
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
