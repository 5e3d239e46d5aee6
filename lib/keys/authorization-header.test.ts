import { describe, expect, it } from "vitest";
import { parseAuthorizationHeader } from "@/lib/keys/authorization-header";
import { checksumFor } from "@/lib/keys/format";

const RANDOM = "Ab3dE9xQ".repeat(4);
const LIVE_KEY = `svc_sk_live_${RANDOM}${checksumFor("live", RANDOM)}`;
const TEST_KEY = `svc_sk_test_${RANDOM}${checksumFor("test", RANDOM)}`;
const BAD_CHECKSUM = `${LIVE_KEY.slice(0, -1)}${LIVE_KEY.endsWith("A") ? "B" : "A"}`;

describe("parseAuthorizationHeader", () => {
  it.each([
    ["live key", `Bearer ${LIVE_KEY}`, "live", LIVE_KEY],
    ["test key", `Bearer ${TEST_KEY}`, "test", TEST_KEY],
    ["lowercase scheme", `bearer ${LIVE_KEY}`, "live", LIVE_KEY],
    ["uppercase scheme", `BEARER ${LIVE_KEY}`, "live", LIVE_KEY],
    ["several spaces after the scheme (RFC 7235 1*SP)", `Bearer   ${LIVE_KEY}`, "live", LIVE_KEY],
  ])("accepts %s", (_label, header, mode, key) => {
    expect(parseAuthorizationHeader(header)).toEqual({ ok: true, mode, key });
  });

  it.each([
    ["undefined", undefined, "missing"],
    ["null", null, "missing"],
    ["empty string", "", "missing"],
    ["only whitespace", "   ", "missing"],
    ["Basic scheme", "Basic xyz", "wrong_scheme"],
    ["Basic scheme carrying a key", `Basic ${LIVE_KEY}`, "wrong_scheme"],
    ["key without a scheme", LIVE_KEY, "wrong_scheme"],
    ["scheme glued to the key", `Bearer${LIVE_KEY}`, "wrong_scheme"],
    ["tab instead of space", `Bearer\t${LIVE_KEY}`, "wrong_scheme"],
    ["leading space", ` Bearer ${LIVE_KEY}`, "wrong_scheme"],
    ["Token scheme", `Token ${LIVE_KEY}`, "wrong_scheme"],
    ["bare Bearer", "Bearer", "empty"],
    ["Bearer and one space", "Bearer ", "empty"],
    ["Bearer and two spaces", "Bearer  ", "empty"],
    ["Bearer and a tab", "Bearer \t", "empty"],
    ["key with trailing space", `Bearer ${LIVE_KEY} `, "malformed"],
    ["key with trailing tab", `Bearer ${LIVE_KEY}\t`, "malformed"],
    ["key followed by another part", `Bearer ${LIVE_KEY} extra`, "malformed"],
    ["two keys", `Bearer ${LIVE_KEY} ${TEST_KEY}`, "malformed"],
    ["wrong prefix svc_sk_prod_", `Bearer ${LIVE_KEY.replace("live", "prod")}`, "malformed"],
    ["too short", `Bearer ${LIVE_KEY.slice(0, -1)}`, "malformed"],
    ["too long", `Bearer ${LIVE_KEY}0`, "malformed"],
    ["arbitrary token", "Bearer abc.def.ghi", "malformed"],
    ["bad checksum", `Bearer ${BAD_CHECKSUM}`, "bad_checksum"],
  ])("rejects %s", (_label, header, reason) => {
    expect(parseAuthorizationHeader(header)).toEqual({ ok: false, reason });
  });
});
