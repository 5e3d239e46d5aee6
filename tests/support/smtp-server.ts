import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  port: number;
  messages(): ReceivedMail[];
  /** The first message to `to` (matching `subject`, when given), waiting for it to arrive. */
  waitFor(to: string, options?: { subject?: RegExp; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** The first http(s) link in a message whose path starts with `path`. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname === path);
  if (!link) throw new Error(`No ${path} link in "${mail.subject}":\n${mail.text}`);
  return link;
}

/**
 * A real SMTP server on loopback (no TLS, no authentication) that keeps every message it accepts,
 * parsed, so tests read what the service actually sent.
 */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const listening = (server.server.address() as { port: number }).port;
  const find = (to: string, subject?: RegExp) => received.find((m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)));
  return {
    url: `smtp://127.0.0.1:${listening}`,
    port: listening,
    messages: () => [...received],
    async waitFor(to, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      for (;;) {
        const found = find(to, options.subject);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} within the time; received: ${received.map((m) => `${m.to.join(",")} "${m.subject}"`).join("; ") || "none"}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
