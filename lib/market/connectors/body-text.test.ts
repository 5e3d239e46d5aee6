import type { Exchange } from "ccxt";
import { describe, expect, it } from "vitest";
import { bodyText } from "./body-text";
import { loadCcxt } from "./load-ccxt";
import type { VenueAdapter } from "./venue-adapter";
import { VENUE_ADAPTERS } from "./venue-adapters";
import { createClient } from "./venue-clients";

const encoder = new TextEncoder();

// Bodies whose text Response.text() decides: ASCII, multi-byte UTF-8, a byte-order mark, malformed bytes.
const BODIES: Record<string, Uint8Array<ArrayBuffer>> = {
  ascii: encoder.encode('{"symbol":"BTCUSDT","fundingRate":"0.00010000","tab":"\\t"}'),
  empty: new Uint8Array(),
  "two- and three-byte characters": encoder.encode('{"name":"Ünïcode 永续合约 €"}'),
  "four-byte characters": encoder.encode('{"emoji":"🚀"}'),
  "byte-order mark": new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('{"a":1}')]),
  "malformed bytes": new Uint8Array([0x7b, 0x22, 0xff, 0xc3, 0x22, 0x7d]),
  "latin1 high bytes": new Uint8Array([0x22, 0xe9, 0x22]),
};

describe("bodyText", () => {
  for (const [name, bytes] of Object.entries(BODIES)) {
    it(`gives Response.text()'s text: ${name}`, async () => {
      const expected = await new Response(bytes).text();
      expect(bodyText(bytes)).toBe(expected);
      expect(bodyText(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)).toBe(expected);
    });
  }

  it("reads only the view's bytes of a larger buffer", () => {
    const whole = encoder.encode('xx{"a":"é"}yy');
    expect(bodyText(whole.subarray(2, whole.length - 2))).toBe('{"a":"é"}');
    expect(bodyText(encoder.encode("ab[1]cd").subarray(2, 5))).toBe("[1]");
  });
});

describe("createClient", () => {
  const adapter = VENUE_ADAPTERS.binance as unknown as VenueAdapter<Exchange>;
  const text = '{"名":"ü","n":1}';

  it("decodes ccxt's own network answers through bodyText, and still hands out bytes when asked", async () => {
    const client = createClient(adapter, await loadCcxt("binance"), {});
    const answer = () => ({ statusCode: 200, headers: {}, body: { arrayBuffer: async () => encoder.encode(text).buffer, text: async () => "wrong" } });
    expect(await client.undiciBody(answer())).toBe(text);
    expect(new TextDecoder().decode((await client.undiciBody(answer(), true)) as ArrayBuffer)).toBe(text);
  });

  it("decodes a custom fetchImplementation's answers through bodyText", async () => {
    const client = createClient(adapter, await loadCcxt("binance"), {
      fetchImplementation: async () => new Response(encoder.encode(text), { headers: { "content-type": "application/json" } }),
    });
    const response = await (client.fetchImplementation as (url: string, init: object) => Promise<Response>)("https://example.test/", {});
    expect(response.text).not.toBe(Response.prototype.text);
    expect(await response.text()).toBe(text);
  });
});
