import type { Page } from "@playwright/test";
import { expect, test } from "./support";

// The API reference (/docs) and the guides it links: rendered Markdown, resolved parameters, working links.

/**
 * The visible text of the page's main content outside code blocks (JSON schemas are shown as
 * source), where any Markdown left unrendered would show: `**bold**` or `` `code` ``.
 */
async function proseOf(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const block of copy.querySelectorAll("pre")) block.remove();
    return copy.textContent ?? "";
  });
}

function expectNoRawMarkdown(text: string, where: string) {
  expect(text, `${where}: ** left as text`).not.toContain("**");
  expect(text.match(/`[^`\n]+`/g) ?? [], `${where}: backtick-wrapped code left as text`).toEqual([]);
}

/** Text that would send a reader to documents that do not ship with Goodfund. */
function expectSelfContained(text: string, hrefs: string[], where: string) {
  expect(text, `${where} mentions a document outside the product`).not.toMatch(/\.\.\/shared|\bcontract\b/i);
  expect(
    hrefs.filter((h) => /\.\.\/|shared|contract/i.test(h)),
    `${where} links outside the product`,
  ).toEqual([]);
}

test("GET /docs renders the reference's Markdown, and every parameter has a name", async ({ page }) => {
  const res = await page.goto("/docs");
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: /Goodfund API/ })).toBeVisible();

  // The introduction's list, rendered: bold words and inline code are elements, not asterisks.
  const overview = page.locator("#overview");
  await expect(overview.locator("li strong", { hasText: "Money" })).toBeVisible();
  await expect(overview.locator("code", { hasText: "X-Request-Id" }).first()).toBeVisible();
  // Tag descriptions, operation descriptions and response texts render their code spans too.
  await expect(page.locator("#createdonation code").first()).toBeAttached();

  // Sections and a few endpoints a reader looks for first.
  for (const name of ["Organizations", "Campaigns", "Donations", "Webhooks", "Schemas"]) {
    await expect(page.getByRole("heading", { level: 2, name, exact: true })).toBeVisible();
  }
  for (const id of ["listorganizations", "createcampaign", "createdonation", "refunddonation"]) {
    await expect(page.locator(`#${id}`)).toHaveCount(1);
  }
  await expect(page.locator("#createdonation h3")).toContainText("POST");
  await expect(page.locator("#createdonation h3")).toContainText("/api/donations");

  expectNoRawMarkdown(await proseOf(page), "/docs");

  // Parameters: the request-ID header (a reusable parameter) is resolved like the others.
  const names = await page
    .locator("table")
    .filter({ has: page.locator("caption", { hasText: "Parameters" }) })
    .locator("tbody tr td:first-child")
    .allTextContents();
  expect(names.length).toBeGreaterThan(20);
  expect(names.filter((n) => n.trim() === "")).toEqual([]);
  await expect(page.locator("#createdonation td", { hasText: /^X-Request-Id$/ })).toHaveCount(1);
  // The success response lists its headers, resolved with their descriptions.
  await expect(page.locator("#listorganizations dt", { hasText: "X-RateLimit-Remaining" })).toBeAttached();
});

test("every guide linked from /docs renders, and none points outside the product @desktop-only", async ({ page, request }) => {
  await page.goto("/docs");
  const guides = page.locator("#guides a");
  const links = await guides.evaluateAll((as) => as.map((a) => ({ href: a.getAttribute("href")!, text: a.textContent ?? "" })));
  expect(links.length).toBeGreaterThanOrEqual(8);
  expectSelfContained(
    await page.locator("body").innerText(),
    await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href")!)),
    "/docs",
  );

  const internal = new Set<string>();
  for (const { href, text } of links) {
    expect(href).toMatch(/^\/docs\/guides\/[a-z0-9-]+$/);
    const res = await page.goto(href);
    expect(res?.status(), href).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }), href).toHaveCount(1);
    await expect(page.getByRole("heading", { level: 1 }), href).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    expectNoRawMarkdown(await proseOf(page), href);
    const hrefs = await page.locator("main a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    expectSelfContained(await page.locator("main").innerText(), hrefs, href);
    for (const h of hrefs) if (h.startsWith("/")) internal.add(h.split("#")[0]);
  }
  // Links between guides and to the reference lead somewhere.
  for (const h of internal) {
    const res = await request.get(h);
    expect(res.status(), `link ${h}`).toBe(200);
  }
  // An unknown guide is the site's 404, not a file read.
  expect((await page.goto("/docs/guides/no-such-guide"))?.status()).toBe(404);
  expect((await request.get("/docs/guides/..%2Fpackage")).status()).toBe(404);
});
