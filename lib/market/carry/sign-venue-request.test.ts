import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { queryString, signBinance, signBybit, signGate } from "./sign-venue-request";

/** An HMAC computed by openssl, not by node: a second implementation of the same primitive. */
function opensslHmac(algorithm: "sha256" | "sha512", secret: string, payload: string): string {
  const out = execFileSync("openssl", ["dgst", `-${algorithm}`, "-hmac", secret], { input: payload }).toString();
  return out.trim().split(" ").at(-1) ?? "";
}

describe("signing venue requests", () => {
  it("Binance: the documentation's worked example (SIGNED endpoint security, HMAC-SHA256 of the query)", () => {
    const secret = "NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j";
    const key = "vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A";
    const signed = signBinance({ symbol: "LTCBTC", side: "BUY", type: "LIMIT", timeInForce: "GTC", quantity: "1", price: "0.1" }, { key, secret }, 1499827319559);
    expect(signed.query.signature).toBe("c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71");
    expect(queryString(signed.query)).toBe(
      "symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559&signature=c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71",
    );
    expect(signed.headers).toEqual({ "X-MBX-APIKEY": key });
  });

  it("Bybit v5: HMAC-SHA256 of timestamp + key + recv window + query, in X-BAPI headers", () => {
    const apiKey = { key: "XXXXXXXXXX", secret: "YYYYYYYYYY" };
    const signed = signBybit({ category: "option", symbol: "BTC-29JUL22-25000-C" }, apiKey, 1658384314791);
    expect(signed.headers).toEqual({
      "X-BAPI-API-KEY": "XXXXXXXXXX",
      "X-BAPI-TIMESTAMP": "1658384314791",
      "X-BAPI-RECV-WINDOW": "5000",
      "X-BAPI-SIGN": opensslHmac("sha256", "YYYYYYYYYY", "1658384314791XXXXXXXXXX5000category=option&symbol=BTC-29JUL22-25000-C"),
    });
    expect(signed.query).toEqual({ category: "option", symbol: "BTC-29JUL22-25000-C" });
  });

  it("Gate v4: HMAC-SHA512 of method, path, query, SHA-512 of the empty body and the timestamp in seconds", () => {
    const signed = signGate("GET", "/api/v4/margin/uni/estimate_rate", { currencies: "BTC,GT" }, { key: "k", secret: "s" }, 1_700_000_000_999);
    const emptyBodySha512 = "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e";
    const payload = `GET\n/api/v4/margin/uni/estimate_rate\ncurrencies=BTC%2CGT\n${emptyBodySha512}\n1700000000`;
    expect(signed.headers).toEqual({ KEY: "k", Timestamp: "1700000000", SIGN: opensslHmac("sha512", "s", payload) });
  });
});
