import { describe, expect, it } from "vitest";
import { parseTrustedProxies } from "@/lib/config/client-address";
import { forwardedClientAddress, withClientAddress } from "./next-client-address";

const none = parseTrustedProxies(undefined);
const proxies = parseTrustedProxies("10.0.0.0/8");

describe("forwardedClientAddress", () => {
  it("takes the right-most hop as the peer, as Next writes it from the socket", () => {
    expect(forwardedClientAddress("::ffff:127.0.0.1", none)).toBe("127.0.0.1");
    expect(forwardedClientAddress("203.0.113.5", none)).toBe("203.0.113.5");
    // Without trusted proxies, what lies left of the peer was written by someone else: ignored.
    expect(forwardedClientAddress("198.51.100.1, 203.0.113.5", none)).toBe("203.0.113.5");
  });

  it("reads past trusted proxies from the right, as server.ts does", () => {
    expect(forwardedClientAddress("198.51.100.1, 203.0.113.5, 10.0.0.2", proxies)).toBe("203.0.113.5");
    expect(forwardedClientAddress("203.0.113.5,10.1.1.1, 10.0.0.2", proxies)).toBe("203.0.113.5");
  });

  it("knows no address without X-Forwarded-For", () => {
    expect(forwardedClientAddress(null, none)).toBeNull();
    expect(forwardedClientAddress(" , ", none)).toBeNull();
  });
});

describe("withClientAddress", () => {
  it("overwrites a client's X-Real-IP with the forwarded address, or removes it", async () => {
    const forged = { "x-real-ip": "10.9.9.9" };
    const request = withClientAddress(
      new Request("http://localhost/v1/simulations", { method: "POST", headers: { ...forged, "x-forwarded-for": "203.0.113.5" }, body: "{}" }),
      none,
    );
    expect(request.headers.get("x-real-ip")).toBe("203.0.113.5");
    expect(request.method).toBe("POST");
    expect(await request.text()).toBe("{}");
    expect(withClientAddress(new Request("http://localhost/v1/auth/verify", { headers: forged }), none).headers.get("x-real-ip")).toBeNull();
  });

  it("keeps a streamed body, as Next hands it over", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":1}'));
        controller.close();
      },
    });
    const init = { method: "POST", headers: { "x-forwarded-for": "2001:db8::5" }, body, duplex: "half" } as RequestInit;
    const request = withClientAddress(new Request("http://localhost/v1/portfolio/positions", init), none);
    expect(request.headers.get("x-real-ip")).toBe("2001:db8::5");
    expect(await request.text()).toBe('{"a":1}');
  });
});
