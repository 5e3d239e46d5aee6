import type { Locator, Page } from "@playwright/test";

/** Submits Account → Webhooks' add form with `url` and one event type: the form, to read its answer. */
export async function submitEndpointForm(page: Page, url: string, eventType: string): Promise<Locator> {
  await page.goto("/account/webhooks");
  const form = page.getByRole("form", { name: "Add a webhook endpoint" });
  await form.getByLabel("Endpoint URL").fill(url);
  await form.getByRole("checkbox", { name: eventType, exact: true }).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  return form;
}
