import { expect, test, type APIRequestContext } from "@playwright/test";
import { signUpInBrowser, uniqueEmail, switchToPro } from "./helpers/accounts";

async function verifyStatus(request: APIRequestContext, key: string): Promise<number> {
  const response = await request.get("/v1/auth/verify", { headers: { Authorization: `Bearer ${key}` } });
  return response.status();
}

test("roll a key: the replacement is shown once, the old key works through its grace period, a roll without grace revokes at once", async ({
  page,
  baseURL,
}) => {
  await signUpInBrowser(page, uniqueEmail("roll"));
  await switchToPro(page);

  await page.goto("/account/api-keys");
  await page.getByRole("button", { name: "Create New Key" }).click();
  const form = page.getByRole("form", { name: "Create API key" });
  await form.getByLabel("Name").fill("rotating bot");
  await form.getByRole("radio", { name: /^Live/ }).check();
  await form.getByRole("button", { name: "Create key" }).click();
  const original = (await page.getByTestId("new-key-secret").textContent())!.trim();

  const rows = page.getByRole("row", { name: /rotating bot/ });
  await expect(rows).toHaveCount(1);
  await rows.getByRole("button", { name: "Roll" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll rotating bot" });
  await dialog.getByLabel("Grace period for the old key").selectOption({ label: "1 hour" });
  await dialog.getByRole("button", { name: "Roll key" }).click();

  await expect(page.getByText("Replacement for “rotating bot”")).toBeVisible();
  const replacement = (await page.getByTestId("new-key-secret").textContent())!.trim();
  expect(replacement).toMatch(/^svc_sk_live_[0-9A-Za-z]{38}$/);
  expect(replacement).not.toBe(original);
  // Same name for both; the old one says when its grace period ends.
  await expect(rows).toHaveCount(2);
  const oldRow = page.getByRole("row", { name: new RegExp(`${original.slice(0, 20)}`) });
  await expect(oldRow).toContainText(/will be revoked at .* \(rolled\)/);
  await expect(oldRow).toContainText("Active");
  // It already has a replacement, so it can be revoked early but not rolled again.
  await expect(oldRow.getByRole("button", { name: "Roll" })).toHaveCount(0);
  await expect(oldRow.getByRole("button", { name: "Revoke now" })).toBeVisible();

  // Within the grace period both keys work.
  expect(await verifyStatus(page.request, original)).toBe(200);
  expect(await verifyStatus(page.request, replacement)).toBe(200);

  // Rolling the replacement with no grace revokes it on the spot.
  await page.reload();
  expect(await page.content()).not.toContain(replacement);
  const newRow = page.getByRole("row", { name: new RegExp(`${replacement.slice(0, 20)}`) });
  await newRow.getByRole("button", { name: "Roll" }).click();
  const second = page.getByRole("dialog", { name: "Roll rotating bot" }).filter({ visible: true });
  await second.getByLabel("Grace period for the old key").selectOption({ label: "None — revoke the old key now" });
  await second.getByRole("button", { name: "Roll key" }).click();
  await expect(page.getByText("Replacement for “rotating bot”")).toBeVisible();
  const third = (await page.getByTestId("new-key-secret").textContent())!.trim();

  expect(await verifyStatus(page.request, replacement)).toBe(401);
  expect(await verifyStatus(page.request, third)).toBe(200);
  expect(await verifyStatus(page.request, original)).toBe(200); // its own grace period still runs
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(`${replacement.slice(0, 20)}`) })).toContainText("Revoked");

  // Back on Free, where the server refuses rolls: Roll is disabled with the reason shown, Revoke still works.
  const downgrade = await page.request.post("/api/account/plan", { data: { tier: "free" }, headers: { Origin: baseURL! } });
  expect(downgrade.status()).toBe(200);
  await page.goto("/account/api-keys");
  const freeRow = page.getByRole("row", { name: new RegExp(`${third.slice(0, 20)}`) });
  await expect(freeRow.getByRole("button", { name: "Roll" })).toBeDisabled();
  await expect(freeRow.getByRole("button", { name: "Roll" })).toHaveAccessibleDescription(/rolling a key also needs Pro or Desk/);
  await expect(freeRow.getByRole("button", { name: "Revoke" })).toBeEnabled();
});
