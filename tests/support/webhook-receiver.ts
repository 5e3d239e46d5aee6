import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The status it was answered with; null while held or when the connection was dropped. */
  answered: number | null;
}

/** What the receiver does with a request: answer a status (with a body, headers), or hold it unanswered. */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | "hold";

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Decides each answer in turn; the default answers 200. */
  answer: (request: ReceivedWebhook, index: number) => ReceiverAnswer;
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A webhook receiver on loopback that records every request and answers as scripted. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const held: http.ServerResponse[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: WebhookReceiver = {
    url: "",
    port: 0,
    received: [],
    answer: () => ({ status: 200, body: "ok" }),
    waitFor(count, timeoutMs = 30_000) {
      if (receiver.received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${receiver.received.length} of ${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: ReceivedWebhook = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), answered: null };
      const index = receiver.received.push(request) - 1;
      const answer = receiver.answer(request, index);
      if (answer === "hold") held.push(res);
      else {
        request.answered = answer.status;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? "");
      }
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
