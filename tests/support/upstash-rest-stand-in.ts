// A local stand-in for Upstash's REST API over a real Redis, so the Upstash store (the `@upstash/redis`
// client, unchanged) is exercised end to end without Upstash's servers. It speaks what that client
// sends: POST / with one command as a JSON array, or POST /pipeline with an array of them (the
// client's automatic pipelining), and a bearer token; it answers { result } or { error } (an array of
// them for a pipeline), string results base64-encoded when asked (`Upstash-Encoding: base64`, the
// client's default). Upstash keeps scripts under the hash of the text it was sent, shebang included; open-source
// Redis refuses the shebang, so scripts run here without it, filed under the original hash.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { stripLuaShebang } from "@/lib/ratelimit/strip-lua-shebang";

export interface UpstashRestStandIn {
  url: string;
  token: string;
  /** Commands received, lower-cased names, in order. */
  commands: string[];
  stop(): Promise<void>;
}

function encode(value: unknown, base64: boolean): unknown {
  if (typeof value === "string") return base64 && value !== "OK" ? Buffer.from(value).toString("base64") : value;
  if (Array.isArray(value)) return value.map((v) => encode(v, base64));
  return value;
}

export async function startUpstashRestStandIn(redisUrl: string): Promise<UpstashRestStandIn> {
  const redis = new Redis(redisUrl);
  const token = "stand-in-token";
  const scriptsBySha = new Map<string, string>();
  const commands: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return answer(401, { error: "Unauthorized" });
      const base64 = req.headers["upstash-encoding"] === "base64";
      const run = async (name: string, args: (string | number)[]): Promise<{ result?: unknown; error?: string }> => {
        const command = name.toLowerCase();
        commands.push(command);
        try {
          if (command === "eval") {
            const [script, ...rest] = args as [string, ...(string | number)[]];
            const stripped = stripLuaShebang(script);
            scriptsBySha.set(createHash("sha1").update(script).digest("hex"), stripped);
            return { result: encode(await redis.eval(stripped, ...(rest as [number, ...(string | number)[]])), base64) };
          }
          if (command === "evalsha") {
            const [sha, ...rest] = args as [string, ...(string | number)[]];
            const script = scriptsBySha.get(sha);
            if (script === undefined) return { error: "NOSCRIPT No matching script. Please use EVAL." };
            return { result: encode(await redis.eval(script, ...(rest as [number, ...(string | number)[]])), base64) };
          }
          return { result: encode(await redis.call(command, ...args), base64) };
        } catch (error) {
          return { error: error instanceof Error ? error.message : String(error) };
        }
      };
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown[];
      if (req.url === "/pipeline" || req.url === "/multi-exec") {
        const results = [];
        for (const [name, ...args] of body as [string, ...(string | number)[]][]) results.push(await run(name, args));
        return answer(200, results);
      }
      const [name, ...args] = body as [string, ...(string | number)[]];
      const outcome = await run(name, args);
      answer(outcome.error === undefined ? 200 : 400, outcome);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    token,
    commands,
    async stop() {
      redis.disconnect();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
