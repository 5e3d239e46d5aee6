import type { Mail } from "./mailer";

/** The texts of the account e-mails, kept free of I/O so they can be read and tested directly. */

export const VERIFY_EMAIL_TTL_HOURS = 48;
export const RESET_PASSWORD_TTL_MINUTES = 30;

export function verificationMail(to: string, link: string): Mail {
  return {
    to,
    subject: "Verify your e-mail address",
    text: [
      "Follow this link to verify your e-mail address for the Funding Opportunity Data Service:",
      "",
      link,
      "",
      `The link works once and expires in ${VERIFY_EMAIL_TTL_HOURS} hours. Until you verify, you can use the screener and test keys, but not live API keys.`,
      "",
      "If you did not create an account, ignore this message.",
    ].join("\n"),
  };
}

export function passwordResetMail(to: string, link: string): Mail {
  return {
    to,
    subject: "Reset your password",
    text: [
      "Someone (hopefully you) asked to reset the password of your Funding Opportunity Data Service account.",
      "Follow this link to choose a new password:",
      "",
      link,
      "",
      `The link works once and expires in ${RESET_PASSWORD_TTL_MINUTES} minutes. Resetting signs out every browser signed in to your account.`,
      "",
      "If you did not ask for this, ignore this message: your password stays as it is.",
    ].join("\n"),
  };
}

export function signUpAttemptMail(to: string, signInLink: string, resetLink: string): Mail {
  return {
    to,
    subject: "Someone tried to sign up with your address",
    text: [
      "Someone tried to create a Funding Opportunity Data Service account with this e-mail address, which already has one.",
      "No new account was created and nothing about your account changed.",
      "",
      `If it was you, sign in: ${signInLink}`,
      `Forgot your password? Reset it: ${resetLink}`,
      "",
      "If it was not you, you can ignore this message.",
    ].join("\n"),
  };
}

export function webhookDisabledMail(to: string, endpoint: { id: string; url: string }, failingSince: Date, accountLink: string): Mail {
  return {
    to,
    subject: "A webhook endpoint was disabled",
    text: [
      `Every delivery to your webhook endpoint ${endpoint.url} (${endpoint.id}) has failed since ${failingSince.toISOString()},`,
      "so the Funding Opportunity Data Service disabled it: it receives no events until it is enabled again.",
      "",
      `Fix the receiver, enable the endpoint (${accountLink} or PATCH /v1/webhook-endpoints/${endpoint.id} with {"enabled": true}),`,
      `then replay what it missed: POST /v1/webhook-endpoints/${endpoint.id}/replay with a "since" time.`,
    ].join("\n"),
  };
}
