// Key controls in Account → API Keys: an IP allowlist set at creation (an ambiguous range refused,
// naming it), enforced on /v1 and edited in place, and the warning for keys expiring within 7 days.
import { expect, test } from "@playwright/test";
import { signUpInBrowser, uniqueEmail } from "./helpers/accounts";

const DAY_MS = 24 * 60 * 60 * 1000;

test("set a key's IP allowlist at creation, see /v1 refuse other addresses, edit it, and see keys expiring soon", async ({ page, baseURL }) => {
  await signUpInBrowser(page, uniqueEmail("controls"));
  expect((await page.request.post("/api/account/plan", { data: { tier: "pro" }, headers: { Origin: baseURL! } })).status()).toBe(200);
  await page.reload();

  // An allowlist at creation: an entry with bits set after its prefix is refused, naming it.
  await page.getByRole("button", { name: "Create New Key" }).click();
  const form = page.getByRole("form", { name: "Create API key" });
  await form.getByLabel("Name").fill("office bot");
  const allowlist = form.getByLabel("IP allowlist (optional)");
  await allowlist.fill("10.0.0.1/8\n2001:DB8::/32");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(allowlist).toHaveAttribute("aria-invalid", "true");
  await expect(allowlist).toHaveAccessibleDescription(/"10\.0\.0\.1\/8" has bits set after its \/8 prefix: write 10\.0\.0\.0\/8 for the range/);
  await allowlist.fill("10.0.0.0/8, 2001:DB8::/32");
  await form.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-key-secret").textContent())!.trim();
  await page.getByRole("button", { name: "I have saved it" }).click();

  const row = page.getByRole("row", { name: /office bot/ });
  await expect(row.getByRole("list", { name: "IP allowlist of office bot" }).getByRole("listitem")).toHaveText(["10.0.0.0/8", "2001:db8::/32"]);

  // This browser calls from the loopback address, which the list leaves out.
  const verify = () => page.request.get("/v1/auth/verify", { headers: { Authorization: `Bearer ${secret}` } });
  const refused = await verify();
  expect(refused.status()).toBe(403);
  const { error } = await refused.json();
  expect(error.code).toBe("FORBIDDEN");
  expect(error.message).toMatch(/^The request's address \((127\.0\.0\.1|::1)\) is not in this API key's IP allowlist$/);

  // Edited in place, and in force on the key's next request.
  await row.getByRole("button", { name: "Edit allowlist" }).click();
  const dialog = page.getByRole("dialog", { name: "IP allowlist of office bot" });
  await expect(dialog.getByLabel("IP allowlist (optional)")).toHaveValue("10.0.0.0/8\n2001:db8::/32");
  await dialog.getByLabel("IP allowlist (optional)").fill("not-an-address");
  await dialog.getByRole("button", { name: "Save allowlist" }).click();
  await expect(dialog.getByLabel("IP allowlist (optional)")).toHaveAccessibleDescription(/"not-an-address" is not an IPv4 or IPv6 address/);
  await dialog.getByLabel("IP allowlist (optional)").fill("127.0.0.1\n::1\n10.0.0.0/8");
  await dialog.getByRole("button", { name: "Save allowlist" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole("list", { name: "IP allowlist of office bot" }).getByRole("listitem")).toHaveText(["127.0.0.1", "::1", "10.0.0.0/8"]);
  expect((await verify()).status()).toBe(200);

  // Emptied: any address, and the page says so.
  await row.getByRole("button", { name: "Edit allowlist" }).click();
  await dialog.getByLabel("IP allowlist (optional)").fill("");
  await dialog.getByRole("button", { name: "Save allowlist" }).click();
  await expect(row).toContainText("Any address");
  expect((await verify()).status()).toBe(200);

  // No key expires soon yet: no warning.
  await expect(page.getByRole("note", { name: "Keys expiring soon" })).toHaveCount(0);

  // A key expiring at the end of the day three days from now is called out, above the table and in its row.
  const inThreeDays = new Date(Date.now() + 3 * DAY_MS).toISOString().slice(0, 10);
  await page.getByRole("button", { name: "Create New Key" }).click();
  await form.getByLabel("Name").fill("short-lived");
  await form.getByLabel("Expiry", { exact: true }).selectOption({ label: "On a date…" });
  await form.getByLabel("Expiry date").fill(inThreeDays);
  await form.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "I have saved it" }).click();
  const warning = page.getByRole("note", { name: "Keys expiring soon" });
  await expect(warning).toContainText("1 key expires within 7 days");
  await expect(warning).toContainText(/“short-lived” \(svc_sk_test_\w{8}…\) expires in 3 days, at \d{4}-\d{2}-\d{2} 23:59 UTC/);
  await expect(page.getByRole("row", { name: /short-lived/ })).toContainText("expires in 3 days");

  // A key expiring in 90 days is not.
  await page.getByRole("button", { name: "Create New Key" }).click();
  await form.getByLabel("Name").fill("long-lived");
  await form.getByLabel("Expiry", { exact: true }).selectOption({ label: "In 90 days" });
  await form.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "I have saved it" }).click();

  await page.reload();
  await expect(warning).toContainText("1 key expires within 7 days");
  await expect(warning).not.toContainText("long-lived");
  await expect(page.getByRole("row", { name: /long-lived/ })).not.toContainText("expires in");
  await expect(page.getByRole("row", { name: /office bot/ })).toContainText("Any address");
  await page.screenshot({ path: "e2e-artifacts/api-keys-controls.png", fullPage: true });
});
