// Ports and fixed accounts of an end-to-end run, shared by playwright.config.ts, the processes it
// starts and the specs. e2e/run.ts picks free ports; the fallbacks serve a bare `npx playwright test`.

export function e2ePorts(env: NodeJS.ProcessEnv = process.env) {
  const app = Number(env.E2E_PORT ?? 3100);
  return {
    app,
    /** The loopback SMTP server the app sends its mail to (SMTP_URL). */
    smtp: Number(env.E2E_SMTP_PORT ?? app + 1),
    /** Where specs read the mail that server received (e2e/helpers/mail-catcher.ts). */
    mail: Number(env.E2E_MAIL_PORT ?? app + 2),
  };
}

/** A passphrase every e2e account uses: long, and on no common-password list. */
export const PASSWORD = "violet tractor sings at noon";

/** The operator, created before the server starts and designated with `npm run admin -- grant`. */
export const OPERATOR_EMAIL = "operator@e2e.test";
