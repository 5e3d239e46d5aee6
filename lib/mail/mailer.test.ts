import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { captureLogs } from "@/tests/support/capture-logs";
import { mailDelivery, sendMail, sendMailInBackground } from "./mailer";
import { passwordResetMail, signUpAttemptMail, verificationMail } from "./messages";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("sendMail without SMTP_URL", () => {
  it("writes the whole message, link included, to the server log and says so", async () => {
    const logs = captureLogs();
    onTestFinished(logs.restore);
    const mail = verificationMail("ada@example.com", "http://localhost:3000/verify-email?token=abc");
    expect(await sendMail(mail, { MAIL_FROM: "Service <accounts@example.com>" })).toBe("log");
    const [logged] = logs.records();
    expect(logged).toMatchObject({ level: "info", component: "mail" });
    expect(logged?.msg).toContain("No SMTP_URL is set");
    expect(logged?.mail).toEqual({ from: "Service <accounts@example.com>", to: "ada@example.com", subject: mail.subject, text: mail.text });
    expect(mail.text).toContain("http://localhost:3000/verify-email?token=abc");
  });

  it("names the delivery the pages describe", () => {
    expect(mailDelivery({})).toBe("log");
    expect(mailDelivery({ SMTP_URL: "smtp://127.0.0.1:2525" })).toBe("smtp");
  });

  it("logs a failed background send instead of throwing it at the caller", async () => {
    const logs = captureLogs();
    onTestFinished(logs.restore);
    // Nothing listens on port 1: the connection is refused.
    expect(sendMailInBackground(verificationMail("a@example.com", "x"), { SMTP_URL: "smtp://127.0.0.1:1" })).toBe("smtp");
    await vi.waitFor(() => expect(logs.records()).toHaveLength(1), { timeout: 10_000 });
    expect(logs.records()[0]).toMatchObject({ level: "error", msg: 'Sending "Verify your e-mail address" failed', to: "a@example.com", err: expect.anything() });
  });
});

describe("the account messages", () => {
  it("carry their links and state how long they work", () => {
    expect(verificationMail("a@example.com", "https://x.test/verify-email?token=t").text).toMatch(/https:\/\/x\.test\/verify-email\?token=t[\s\S]*48 hours/);
    expect(passwordResetMail("a@example.com", "https://x.test/reset-password?token=t").text).toMatch(/https:\/\/x\.test\/reset-password\?token=t[\s\S]*30 minutes/);
    const attempt = signUpAttemptMail("a@example.com", "https://x.test/signin", "https://x.test/forgot-password");
    expect(attempt.subject).toBe("Someone tried to sign up with your address");
    expect(attempt.text).toContain("https://x.test/signin");
    expect(attempt.text).toContain("https://x.test/forgot-password");
  });
});
