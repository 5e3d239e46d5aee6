import { expect, test } from "@playwright/test";
import { signUpThenSwitchToPro, uniqueEmail } from "./helpers/accounts";
import { submitEndpointForm } from "./helpers/webhook-endpoints";

// Account → Alerts in a browser against the production server: the plan notice on Free, then on
// Pro a refused rule named on its field, a rule added with conditions and an endpoint, the form's
// fields following the kind, disable and enable, delete.
test("manage alert rules: add with conditions and an endpoint, disable, enable, delete", async ({ page }) => {
  await signUpThenSwitchToPro(page, uniqueEmail("alerts"), "/account/alerts", "Alerts come with the Pro and Desk plans");

  // An endpoint to deliver to (public URL: it is only chosen here, never called).
  await submitEndpointForm(page, "https://example.com/alerts", "venue.stale");
  await page.getByRole("button", { name: "I have saved it" }).click();

  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Alerts" }).click();
  await expect(page).toHaveURL(/\/account\/alerts$/);
  await expect(page.getByText("No alert rules yet.")).toBeVisible();
  const form = page.getByRole("form", { name: "Add an alert rule" });

  // The fields follow the kind: a venue rule has neither symbol nor minimums.
  await form.getByLabel("Watch").selectOption({ label: "Venues going stale" });
  await expect(form.getByLabel("Symbol (optional)")).toHaveCount(0);
  await expect(form.getByLabel("Minimum net APR (% per year) (optional)")).toHaveCount(0);
  await form.getByLabel("Watch").selectOption({ label: "Opportunities (opened or updated)" });

  // Refused: no name, and a share above 1, each named on its field.
  await form.getByLabel("Minimum share of the last 7 days paid (0 to 1) (optional)").fill("1.5");
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(form.getByText("Give the rule a name")).toBeVisible();
  await expect(page.getByTestId("alert-rule")).toHaveCount(0);

  await form.getByLabel("Name").fill("BTC wide and steady");
  await form.getByLabel("Symbol (optional)").fill("btc");
  await form.getByLabel("Minimum net APR (% per year) (optional)").fill("12.5");
  await form.getByLabel("Minimum share of the last 7 days paid (0 to 1) (optional)").fill("0.8");
  await form.getByRole("checkbox", { name: "https://example.com/alerts" }).check();
  await form.getByLabel("Cool-down (minutes)").fill("30");
  await form.getByRole("button", { name: "Add rule" }).click();

  const row = page.getByTestId("alert-rule");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("BTC wide and steady");
  await expect(row).toContainText("Opportunities entering · BTC · net APR ≥ 12.5 % · paid ≥ 80 % of 7 days (cool-down 30 min)");
  await expect(row.getByRole("link", { name: "https://example.com/alerts" })).toBeVisible();
  await expect(row).toContainText("Enabled");

  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("Disabled");
  await row.getByRole("button", { name: "Enable" }).click();
  await expect(row).toContainText("Enabled");
  await page.reload();
  await expect(row).toContainText("Enabled");

  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete BTC wide and steady" }).getByRole("button", { name: "Delete rule" }).click();
  await expect(page.getByText("No alert rules yet.")).toBeVisible();
});
