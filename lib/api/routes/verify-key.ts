import { z } from "zod";
import { KEY_MODES } from "@/lib/keys/mode";
import { permissionSchema, tierSchema } from "@/lib/keys/permissions";
import { defineRoute, requireKey } from "../route";

const verificationSchema = z.object({
  valid: z.literal(true).describe("Always true: a key that is not accepted gets 401 UNAUTHORIZED instead."),
  tier: tierSchema.describe("Tier of the key's account."),
  expires_at: z.iso.datetime().nullable().describe("ISO 8601 UTC expiry; null when the key does not expire."),
  mode: z.enum(KEY_MODES).describe("live (svc_sk_live_) or test (svc_sk_test_, sandbox data)."),
  permissions: z.array(permissionSchema).describe("What the key may do now: its own permissions cut down to its tier's."),
});

// GET /v1/auth/verify — is this key accepted, and what may it do? Open to any valid key, Free included.
export const verifyKeyRoute = defineRoute({
  method: "GET",
  path: "/v1/auth/verify",
  operationId: "verifyKey",
  summary: "Check an API key",
  description:
    "Answers whether the key is accepted, the tier of its account, its expiry, mode and effective permissions. " +
    "Any valid key may call it, a Free account's included; a missing, malformed, revoked or expired key gets 401.",
  tag: "Authentication",
  permission: null,
  data: verificationSchema,
  handler: async (input) => {
    const key = requireKey(input.key);
    return {
      data: {
        valid: true,
        tier: key.tier,
        expires_at: key.expiresAt?.toISOString() ?? null,
        mode: key.mode,
        permissions: key.permissions,
      },
    };
  },
});
