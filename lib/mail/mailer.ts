import { createTransport, type Transporter } from "nodemailer";
import { logger } from "@/lib/observability/logger";
import { processSingleton } from "@/lib/singleton";

const log = logger("mail");

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** How mail leaves this process: an SMTP server (SMTP_URL), or the server log when none is configured. */
export type MailDelivery = "smtp" | "log";

const DEFAULT_FROM = "Funding Opportunity Data Service <no-reply@localhost>";

/** Where mail settings come from (process.env, or a test's own): SMTP_URL (where to send) and MAIL_FROM (the sender). */
export type MailEnv = Readonly<Record<string, string | undefined>>;

export function mailDelivery(env: MailEnv = process.env): MailDelivery {
  return env.SMTP_URL ? "smtp" : "log";
}

function transport(url: string): Transporter {
  // One transport per process and URL (tests point SMTP_URL at servers of their own).
  return processSingleton(`smtp-transport:${url}`, () => createTransport(url));
}

/**
 * Sends one message. Without SMTP_URL (the embedded default) the whole message, link included, is
 * written to the server log: whoever runs the server can then act on it, and nothing pretends a
 * message left the machine.
 */
export async function sendMail(mail: Mail, env: MailEnv = process.env): Promise<MailDelivery> {
  const from = env.MAIL_FROM || DEFAULT_FROM;
  if (env.SMTP_URL) {
    await transport(env.SMTP_URL).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    return "smtp";
  }
  log.info({ mail: { from, to: mail.to, subject: mail.subject, text: mail.text } }, "No SMTP_URL is set, so this message was not sent; it is logged here instead");
  return "log";
}

/**
 * Sends without waiting for the mail server, for answers that must take the same time whether or
 * not a message was due (sign-up, "forgot password"): a failure is logged, never shown.
 */
export function sendMailInBackground(mail: Mail, env: MailEnv = process.env): MailDelivery {
  sendMail(mail, env).catch((error: unknown) => log.error({ err: error, to: mail.to, subject: mail.subject }, `Sending "${mail.subject}" failed`));
  return mailDelivery(env);
}
