import { expect, test } from "@playwright/test";
import { signUpThenSwitchToPro, uniqueEmail } from "./helpers/accounts";
import { submitEndpointForm } from "./helpers/webhook-endpoints";
import { signature } from "../lib/webhooks/webhook-signature";
import { startWebhookReceiver } from "../tests/support/webhook-receiver";

// Account → Webhooks in a browser against the production server (its deliveries run in-process on
// the embedded database): add an endpoint and see its secret once, send a test event that a
// loopback receiver gets signed with it, read the delivery log, redeliver, roll the secret,
// disable and delete.
test("manage a webhook endpoint: secret once, test event delivered and logged, redeliver, roll, disable, delete", async ({ page }) => {
  const receiver = await startWebhookReceiver();
  try {
    receiver.answer = (_request, index) => (index === 0 ? { status: 500, body: "not yet" } : { status: 200, body: "thanks" });
    await signUpThenSwitchToPro(page, uniqueEmail("webhooks"), "/account/webhooks", "Webhooks come with the Pro and Desk plans");

    // A URL refused by the policy is named on its field.
    const form = await submitEndpointForm(page, "ftp://example.com/hook", "opportunity.opened");
    await expect(form.getByRole("alert").first()).toContainText("http(s) URL");

    await form.getByLabel("Endpoint URL").fill(`${receiver.url}/hook`);
    await form.getByLabel("Description (optional)").fill("e2e receiver");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.getByTestId("new-webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.getByRole("button", { name: "I have saved it" }).click();
    const row = page.getByTestId("webhook-endpoint");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("opportunity.opened");
    await expect(row).toContainText("Enabled");
    await page.reload();
    expect(await page.content()).not.toContain(secret);

    // A test event: the receiver answers 500 first; the log shows the attempt, and Redeliver gets a 200.
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event queued")).toBeVisible();
    await receiver.waitFor(1);
    const first = receiver.received[0]!;
    expect(JSON.parse(first.body)).toMatchObject({ id: expect.stringMatching(/^evt_\d{16}$/), type: "opportunity.opened", test: true, data: { opportunity: expect.any(Object) } });
    expect(first.headers["webhook-signature"]).toBe(signature(secret, String(first.headers["webhook-id"]), Number(first.headers["webhook-timestamp"]), first.body));

    await page.getByRole("link", { name: `${receiver.url}/hook` }).click();
    await expect(page.getByRole("heading", { name: `${receiver.url}/hook` })).toBeVisible();
    const delivery = page.getByTestId("webhook-delivery");
    await expect(async () => {
      await page.reload();
      await expect(delivery).toContainText("1 attempts", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await delivery.getByText("1 attempts").click();
    await expect(delivery.getByTestId("webhook-attempt")).toContainText("HTTP 500");
    await expect(delivery.getByTestId("webhook-attempt")).toContainText("not yet");

    await delivery.getByRole("button", { name: "Redeliver" }).click();
    await receiver.waitFor(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    await expect(async () => {
      await page.reload();
      await expect(delivery).toContainText("succeeded", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await delivery.getByText("2 attempts").click();
    await expect(delivery.getByTestId("webhook-attempt").first()).toContainText("HTTP 200");
    await expect(delivery.getByTestId("webhook-attempt").first()).toContainText("redelivered by hand");

    // Roll the secret with an overlap: a new secret, shown once; both sign the next test event.
    await page.getByRole("button", { name: "Roll secret" }).click();
    const dialog = page.getByRole("dialog", { name: `Roll the secret of ${receiver.url}/hook` });
    await dialog.getByLabel("Overlap").selectOption({ label: "24 hours" });
    await dialog.getByRole("button", { name: "Roll secret" }).click();
    const rolled = (await page.getByTestId("new-webhook-secret").textContent())!.trim();
    expect(rolled).not.toBe(secret);
    await page.getByRole("button", { name: "I have saved it" }).click();
    await expect(page.getByText(/the previous secret signs too until/)).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    await receiver.waitFor(3);
    const third = receiver.received[2]!;
    const id = String(third.headers["webhook-id"]);
    const timestamp = Number(third.headers["webhook-timestamp"]);
    expect(third.headers["webhook-signature"]).toBe(`${signature(rolled, id, timestamp, third.body)} ${signature(secret, id, timestamp, third.body)}`);

    // Disable, then delete.
    await page.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByText("Disabled", { exact: false }).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Enable" })).toBeVisible();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: `Delete ${receiver.url}/hook` }).getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page).toHaveURL(/\/account\/webhooks$/);
    await expect(page.getByText("No endpoints yet.")).toBeVisible();
  } finally {
    await receiver.close();
  }
});
