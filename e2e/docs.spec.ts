import { expect, test } from "@playwright/test";
import { accountWithKey } from "./helpers/accounts";

test("a new user finds /docs from the header, the reference renders from our own bundle, and every curl example works", async ({
  page,
  playwright,
  baseURL,
}) => {
  // It renders the whole reference and then runs every curl example on the page, one by one.
  test.setTimeout(180_000);
  const browserErrors: string[] = [];
  page.on("pageerror", (error) => browserErrors.push(error.message));
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== new URL(baseURL!).origin) foreign.push(request.url());
  });

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Docs" }).click();
  // The URL changes once the page's first answer arrives: the server loads a route's bundle on its
  // first request (next.config.mjs), which beside CI's parallel tests once took longer than 5 s.
  await expect(page).toHaveURL(/\/docs$/, { timeout: 30_000 });
  for (const heading of ["Quick start", "Authentication", "Test and live keys", "Errors", "Rate limits", "Pagination"]) {
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
  }
  await expect(page.getByText("Unix epoch seconds at which the current window ends and the whole limit is available again.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Licence", exact: true })).toBeVisible();
  // Push delivery: every event type, and a worked example of each client helper in both languages.
  await expect(page.getByRole("heading", { name: "Push delivery: events, the stream and webhooks" })).toBeVisible();
  for (const type of ["opportunity.opened", "opportunity.updated", "opportunity.closed", "funding_interval.changed", "venue.stale", "venue.recovered"]) {
    await expect(page.locator("#push ~ div table td code", { hasText: type }).first()).toBeVisible();
  }
  for (const call of ["api.iterateEvents(", "api.iter_events(", "api.streamEvents(", "api.stream_events(", "await verifyWebhook(", "verify_webhook(body"]) {
    await expect(page.locator("pre code", { hasText: call }).first()).toBeVisible();
  }
  // Each example says which permission, hence which plans, it needs.
  await expect(page.locator("p", { hasText: "Needs the write permission (Desk)." }).first()).toBeVisible();
  await expect(page.locator("p", { hasText: "Needs the opportunities:read permission (Pro, Desk)." }).first()).toBeVisible();
  await expect(page.locator("p", { hasText: "Clients: api.listOpportunities() in TypeScript, api.list_opportunities() in Python." })).toBeVisible();

  // swagger-ui renders every operation of the document, and every webhook it describes.
  const document = await (await page.request.get("/v1/openapi.json")).json();
  const operations = Object.values(document.paths as Record<string, object>).flatMap((item) => Object.keys(item));
  const webhooks = Object.values(document.webhooks as Record<string, object>).flatMap((item) => Object.keys(item));
  expect(webhooks.length).toBeGreaterThan(0);
  await expect(page.locator(".swagger-ui .opblock")).toHaveCount(operations.length + webhooks.length, { timeout: 20_000 });
  await expect(page.locator(".swagger-ui .opblock-summary-path").first()).toContainText("/v1/");
  // An operation opens to its parameters and responses (a mis-bundled swagger-ui spins forever here).
  const listOperation = page.locator(".swagger-ui .opblock").filter({ hasText: "List ranked funding-rate" });
  await listOperation.locator(".opblock-summary").click();
  await expect(listOperation.locator(".parameters-container")).toContainText("min_apr");
  await expect(listOperation.locator(".responses-wrapper")).toContainText("429");
  expect(browserErrors, "the reference page raised no errors").toEqual([]);
  await page.screenshot({ path: "e2e-artifacts/docs.png", fullPage: true });
  expect(foreign, "nothing may load from another origin").toEqual([]);

  // The copy-pasteable examples, run as written with a fresh Desk account's test key holding every permission.
  const { account, key } = await accountWithKey(playwright, baseURL!, {
    label: "docs",
    tier: "desk",
    mode: "test",
    permissions: ["opportunities:read", "simulations:read", "portfolio:read", "write"],
  });
  expect(key).toMatch(/^svc_sk_test_/);

  const examples = (await page.locator("pre code").allTextContents()).filter((text) => text.includes("curl -sS"));
  expect(examples.length).toBeGreaterThanOrEqual(operations.length);
  // An example reading a created resource names it by a placeholder such as SIMULATION_ID or
  // WEBHOOK_DELIVERY_ID: an example before it made one (a POST answering an id not seen before: a
  // creation's 201, or sending a test webhook), as a reader following the page would. A placeholder
  // stands for the newest such id that no other placeholder stands for.
  const ids = new Map<string, string>();
  const fresh: string[] = [];
  for (const example of examples) {
    // Flags other than -X (the export's -OJ) change where curl writes the answer, not the request.
    const [, method = "GET", written] = /curl -sS(?: -X (\w+))?(?: -\w+)* "([^"]+)"/.exec(example)!;
    const url = written!.replace(/\b[A-Z]+(?:_[A-Z]+)*_ID\b/g, (placeholder) => {
      if (!ids.has(placeholder) && fresh.length > 0) ids.set(placeholder, fresh.pop()!);
      return ids.get(placeholder) ?? placeholder;
    });
    const body = /-d '([^']*)'/.exec(example)?.[1];
    expect(example).toContain('-H "Authorization: Bearer $FUNDING_DATA_API_KEY"');
    const response = await account.fetch(url, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body && { "Content-Type": "application/json" }) },
      ...(body && { data: body }),
    });
    // POSTs that create answer 201; actions on an existing resource (close) answer 200.
    expect(method === "POST" ? [200, 201] : [200], `${method} ${url}: ${await response.text()}`).toContain(response.status());
    const id: unknown = method === "POST" ? (await response.json()).data?.id : undefined;
    if (typeof id === "string" && ![...ids.values(), ...fresh].includes(id)) fresh.push(id);
  }
});
