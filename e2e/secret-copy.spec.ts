// The one-time secret panel's Copy button: it says "Copied" only when the browser took the secret,
// and says to copy by hand when the browser refused the clipboard.
import { expect, test, type Page } from "@playwright/test";
import { signUpInBrowser, uniqueEmail } from "./helpers/accounts";

async function createKey(page: Page, baseURL: string) {
  expect((await page.request.post("/api/account/plan", { data: { tier: "pro" }, headers: { Origin: baseURL } })).status()).toBe(200);
  await page.reload();
  await page.getByRole("button", { name: "Create New Key" }).click();
  const form = page.getByRole("form", { name: "Create API key" });
  await form.getByLabel("Name").fill("copy test");
  await form.getByRole("button", { name: "Create key" }).click();
  return (await page.getByTestId("new-key-secret").textContent())!.trim();
}

test("Copy puts the secret on the clipboard and says Copied", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await signUpInBrowser(page, uniqueEmail("copy"));
  const secret = await createKey(page, baseURL!);
  const region = page.getByRole("region", { name: "New API key" });
  await region.getByRole("button", { name: /^Copy/ }).click();
  await expect(region.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
});

test("a refused clipboard leaves the button as it was and says to copy by hand", async ({ page, baseURL }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", { value: { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) } });
  });
  await signUpInBrowser(page, uniqueEmail("nocopy"));
  await createKey(page, baseURL!);
  const region = page.getByRole("region", { name: "New API key" });
  await region.getByRole("button", { name: /^Copy/ }).click();
  await expect(region.getByRole("status")).toHaveText(/did not allow copying: select the secret above and copy it by hand/);
  await expect(region.getByRole("button", { name: "Copied" })).toHaveCount(0);
});
