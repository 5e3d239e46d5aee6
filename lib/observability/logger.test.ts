import { afterEach, describe, expect, it } from "vitest";
import { captureLogs, type CapturedLogs } from "@/tests/support/capture-logs";
import { configuredLogLevel } from "./log-level";
import { logger, logLevel } from "./logger";
import { runInRequestContext, setRequestAccount } from "./request-context";

let logs: CapturedLogs | undefined;
afterEach(() => logs?.restore());

describe("the logger", () => {
  it("writes one JSON line with time, level, component and message", () => {
    logs = captureLogs();
    logger("ingest").info({ roundId: "r1" }, "ingestion round published");
    const [line] = logs.records();
    expect(line).toMatchObject({ level: "info", component: "ingest", roundId: "r1", msg: "ingestion round published", pid: process.pid });
    expect(new Date(line!.time).toISOString()).toBe(line!.time);
    expect(line).not.toHaveProperty("request_id");
  });

  it("names the request and its account in a line written anywhere under the request", async () => {
    logs = captureLogs();
    await runInRequestContext({ requestId: "req_abc" }, async () => {
      logger("api").warn("before the key is known");
      setRequestAccount("acct_1");
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger("stream").error({ err: new Error("boom") }, "after an await");
    });
    logger("api").info("outside any request");
    const [before, after, outside] = logs.records();
    expect(before).toMatchObject({ request_id: "req_abc", msg: "before the key is known" });
    expect(before).not.toHaveProperty("account");
    expect(after).toMatchObject({ level: "error", component: "stream", request_id: "req_abc", account: "acct_1", err: { message: "boom", type: "Error" } });
    expect(outside).not.toHaveProperty("request_id");
    expect(outside).not.toHaveProperty("account");
  });

  it("leaves out lines below its level, in every component", () => {
    const ingest = logger("ingest");
    const before = logLevel();
    logs = captureLogs("warn");
    ingest.info("not written");
    ingest.debug("nor this");
    logger("a-component-made-later").info("nor this");
    ingest.warn("written");
    logger("a-component-made-later").error("and this");
    expect(logs.records().map((r) => [r.level, r.msg])).toEqual([
      ["warn", "written"],
      ["error", "and this"],
    ]);
    logs.restore();
    expect(logLevel()).toBe(before);
  });
});

describe("LOG_LEVEL", () => {
  it("defaults to info", () => {
    expect(configuredLogLevel({})).toBe("info");
    expect(configuredLogLevel({ LOG_LEVEL: "warn" })).toBe("warn");
    expect(configuredLogLevel({ LOG_LEVEL: " Debug " })).toBe("debug");
  });

  it("is silent in the tests unless LOG_LEVEL says otherwise (tests/support/quiet-logs.ts)", () => {
    expect(logLevel()).toBe(process.env.LOG_LEVEL ? configuredLogLevel() : "silent");
  });

  it("refuses a level that does not exist (the logger then logs at info and says so)", () => {
    expect(() => configuredLogLevel({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  });
});
