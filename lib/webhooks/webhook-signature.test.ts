import { describe, expect, it } from "vitest";
import { STANDARD_WEBHOOKS_VECTOR } from "@/tests/support/webhook-test-vector";
import { newSigningSecret, secretKey, signature, webhookHeaders } from "./webhook-signature";

const VECTOR = STANDARD_WEBHOOKS_VECTOR;

describe("webhook signatures", () => {
  it("match the Standard Webhooks test vector", () => {
    expect(signature(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("change with the id, the timestamp and the body", () => {
    expect(signature(VECTOR.secret, "msg_other", VECTOR.timestamp, VECTOR.body)).not.toBe(VECTOR.signature);
    expect(signature(VECTOR.secret, VECTOR.id, VECTOR.timestamp + 1, VECTOR.body)).not.toBe(VECTOR.signature);
    expect(signature(VECTOR.secret, VECTOR.id, VECTOR.timestamp, '{"test": 2432232315}')).not.toBe(VECTOR.signature);
  });

  it("sign with every secret in force, space-separated", () => {
    const other = newSigningSecret();
    const headers = webhookHeaders([other, VECTOR.secret], VECTOR.id, VECTOR.timestamp, VECTOR.body);
    expect(headers["webhook-id"]).toBe(VECTOR.id);
    expect(headers["webhook-timestamp"]).toBe("1614265330");
    const parts = headers["webhook-signature"]!.split(" ");
    expect(parts).toHaveLength(2);
    expect(parts[1]).toBe(VECTOR.signature);
    expect(parts[0]).toBe(signature(other, VECTOR.id, VECTOR.timestamp, VECTOR.body));
  });

  it("makes secrets of whsec_ and 32 random bytes in base64", () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });
});
