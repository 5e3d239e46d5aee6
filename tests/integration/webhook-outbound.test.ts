import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readWebhookConfig } from "@/lib/webhooks/webhook-config";
import { REFUSED_PRIVATE, sendWebhook, urlProblem } from "@/lib/webhooks/send-webhook";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

// Outbound requests (lib/webhooks/send-webhook.ts) against real sockets on loopback: the address
// policy after resolution, the connection pinned to the checked address, the timeout, redirects
// not followed, and the first kilobyte of the answer kept.

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());

const body = '{"id":"evt_0000000000000001"}';
const resolveTo = (address: string) => async () => [{ address, family: address.includes(":") ? 6 : 4 }];

describe("sendWebhook", () => {
  it("refuses names resolving to private, loopback, link-local and mapped addresses unless private URLs are allowed", async () => {
    for (const address of ["127.0.0.1", "10.0.0.8", "169.254.169.254", "::1", "::ffff:127.0.0.1", "::ffff:0:10.1.2.3", "64:ff9b:1::a00:1", "fd00::1", "100.64.1.1"]) {
      const result = await sendWebhook("https://hooks.example.com/in", {}, body, { allowPrivate: false, timeoutMs: 2_000, resolve: resolveTo(address) });
      expect(result.ok, address).toBe(false);
      expect(result.statusCode).toBeNull();
      // Which internal address the name has is not told.
      expect(result.error).toBe("refused: resolves to a private address");
    }
    // One private address among public ones is enough to refuse.
    const mixed = await sendWebhook("https://hooks.example.com/in", {}, body, {
      allowPrivate: false,
      timeoutMs: 2_000,
      resolve: async () => [{ address: "93.184.216.34", family: 4 }, { address: "127.0.0.1", family: 4 }],
    });
    expect(mixed.error).toBe(REFUSED_PRIVATE);
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses literal private addresses, localhost and plain http before resolving anything", async () => {
    let resolved = 0;
    const resolve = async () => {
      resolved += 1;
      return [{ address: "93.184.216.34", family: 4 }];
    };
    for (const url of [`https://127.0.0.1:${receiver.port}/`, "https://[::1]/", "https://localhost/", "https://192.168.1.1/", "http://hooks.example.com/"]) {
      const result = await sendWebhook(url, {}, body, { allowPrivate: false, timeoutMs: 2_000, resolve });
      expect(result.ok, url).toBe(false);
      expect(result.error, url).toMatch(/^The URL/);
    }
    expect(resolved).toBe(0);
    expect(urlProblem(new URL("https://user:pw@hooks.example.com/"), true)).toMatch(/credentials/);
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses ports other than 443 and 80 unless WEBHOOK_ALLOWED_PORTS lists them", async () => {
    const ports = readWebhookConfig({ NODE_ENV: "test" }).WEBHOOK_ALLOWED_PORTS;
    expect(ports).toEqual([443, 80]);
    for (const url of ["https://hooks.example.com:8443/", "https://hooks.example.com:22/", "https://hooks.example.com:6379/"]) {
      expect(urlProblem(new URL(url), false, ports), url).toMatch(/port must be one of 443, 80/);
    }
    for (const url of ["https://hooks.example.com/", "https://hooks.example.com:443/", "https://hooks.example.com:80/"]) {
      expect(urlProblem(new URL(url), false, ports), url).toBeNull();
    }
    const configured = readWebhookConfig({ NODE_ENV: "test", WEBHOOK_ALLOWED_PORTS: "443, 8443" }).WEBHOOK_ALLOWED_PORTS;
    expect(urlProblem(new URL("https://hooks.example.com:8443/"), false, configured)).toBeNull();
    expect(() => readWebhookConfig({ NODE_ENV: "test", WEBHOOK_ALLOWED_PORTS: "443,https" })).toThrow(/WEBHOOK_ALLOWED_PORTS/);
    // The default is what an attempt checks too.
    const result = await sendWebhook("https://hooks.example.com:8443/", {}, body, { allowPrivate: false, timeoutMs: 2_000, resolve: resolveTo("93.184.216.34") });
    expect(result.error).toMatch(/port must be one of/);
  });

  it("connects to the address it checked, sending the URL's host name", async () => {
    let resolutions = 0;
    const result = await sendWebhook(`http://hooks.example.com:${receiver.port}/pinned`, { "webhook-id": "msg_1" }, body, {
      allowPrivate: true,
      timeoutMs: 5_000,
      resolve: async () => {
        resolutions += 1;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, responseBody: "ok" });
    expect(resolutions).toBe(1); // resolved once, by the check; the connection asked no resolver again
    const request = receiver.received.at(-1)!;
    expect(request.path).toBe("/pinned");
    expect(request.headers.host).toBe(`hooks.example.com:${receiver.port}`);
    expect(request.headers["webhook-id"]).toBe("msg_1");
    expect(request.body).toBe(body);
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    const before = receiver.received.length;
    receiver.answer = (request) => (request.path === "/moved" ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : { status: 200 });
    const result = await sendWebhook(`${receiver.url}/moved`, {}, body, { allowPrivate: true, timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: "redirect not followed" });
    expect(receiver.received.slice(before).map((r) => r.path)).toEqual(["/moved"]);
    receiver.answer = () => ({ status: 200, body: "ok" });
  });

  it("keeps only the first kilobyte of the answer, without NUL characters", async () => {
    receiver.answer = () => ({ status: 500, body: "\u0000" + "x".repeat(5_000) });
    const result = await sendWebhook(receiver.url, {}, body, { allowPrivate: true, timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: "HTTP 500" });
    expect(result.responseBody).toBe("x".repeat(1_023));
    receiver.answer = () => ({ status: 200, body: "ok" });
  });

  it("gives up on a receiver that does not answer within the timeout", async () => {
    receiver.answer = () => "hold";
    const result = await sendWebhook(receiver.url, {}, body, { allowPrivate: true, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timed out after 300 ms" });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    receiver.answer = () => ({ status: 200, body: "ok" });
  });

  it("fails cleanly when nothing listens", async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const result = await sendWebhook(`http://127.0.0.1:${port}/`, {}, body, { allowPrivate: true, timeoutMs: 2_000 });
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
