import type { Page } from "@playwright/test";
import { expect, expectNoSeriousViolations, test } from "./support";

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

test(
  "GET /docs renders the reference's overview and an index of its sections; each section's page its endpoints, every parameter named",
  { tag: "@desktop-only" },
  async ({ page }) => {
    // It opens every section's page.
    test.setTimeout(240_000);
    const res = await page.goto("/docs");
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: /Goodfund API/ })).toBeVisible();

    // The introduction's list, rendered: bold words and inline code are elements, not asterisks.
    const overview = page.locator("#overview");
    await expect(overview.locator("li strong", { hasText: "Money" })).toBeVisible();
    await expect(overview.locator("code", { hasText: "X-Request-Id" }).first()).toBeVisible();
    expectNoRawMarkdown(await proseOf(page), "/docs");

    // The index: a heading per section a reader looks for first, linked to its page, and each endpoint linked to its description.
    for (const name of ["Organizations", "Campaigns", "Donations", "Webhooks"]) {
      await expect(page.locator("#endpoints").getByRole("heading", { level: 3, name, exact: true })).toBeVisible();
    }
    const toCreateDonation = page.locator("#tag-donations").getByRole("link", { name: /POST \/api\/donations$/ });
    await expect(toCreateDonation).toHaveAttribute("href", "/docs/donations#createdonation");
    await toCreateDonation.click();
    await page.waitForURL(/\/docs\/donations#createdonation$/);
    await expect(page.getByRole("heading", { level: 1, name: "Donations" })).toBeVisible();
    await expect(page.locator("#createdonation h3")).toContainText("POST");
    await expect(page.locator("#createdonation h3")).toContainText("/api/donations");
    // Operation descriptions and response texts render their code spans too.
    await expect(page.locator("#createdonation code").first()).toBeAttached();
    // Parameters: the request-ID header (a reusable parameter) is resolved like the others.
    await expect(page.locator("#createdonation td", { hasText: /^X-Request-Id$/ })).toHaveCount(1);

    // Every section's page: its operations, no Markdown left as text, and every parameter with a name.
    const sections = await page
      .getByRole("navigation", { name: "API sections" })
      .locator("a")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")!).filter((h) => /^\/docs\/[a-z0-9-]+$/.test(h) && h !== "/docs/schemas"));
    expect(sections.length).toBeGreaterThanOrEqual(8);
    const names: string[] = [];
    for (const href of sections) {
      expect((await page.goto(href))?.status(), href).toBe(200);
      await expect(page.getByRole("heading", { level: 1 }), href).toHaveCount(1);
      expect(await page.locator("article").count(), `${href} describes its operations`).toBeGreaterThan(0);
      expectNoRawMarkdown(await proseOf(page), href);
      names.push(
        ...(await page
          .locator("table")
          .filter({ has: page.locator("caption", { hasText: "Parameters" }) })
          .locator("tbody tr td:first-child")
          .allTextContents()),
      );
    }
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((n) => n.trim() === "")).toEqual([]);
    // The success response lists its headers, resolved with their descriptions.
    await page.goto("/docs/organizations");
    await expect(page.locator("#listorganizations dt", { hasText: "X-RateLimit-Remaining" })).toBeAttached();
    // A schema reference leads to the schema on the schemas page.
    await page.locator("#listorganizations details summary").first().click();
    const ref = page.locator('#listorganizations a[href^="/docs/schemas#schema-"]').first();
    const href = (await ref.getAttribute("href"))!;
    await ref.click();
    const hash = href.slice("/docs/schemas".length);
    await page.waitForURL((url) => url.pathname === "/docs/schemas" && url.hash === hash);
    await expect(page.locator(hash)).toBeAttached();
    // An unknown section is the site's 404.
    expect((await page.goto("/docs/no-such-section"))?.status()).toBe(404);
  },
);

// The content checks above are the same at any width, and this one sets the phone's width itself:
// each runs once (@desktop-only).
test(
  "the reference's pages fit a 375 px phone: no sideways scrolling, no serious axe finding",
  { tag: "@desktop-only" },
  async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 375, height: 812 });
    for (const path of ["/docs", "/docs/donations", "/docs/schemas", "/docs/guides/authentication"]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path}: no sideways scrolling at 375 px`).toBeLessThanOrEqual(1);
      await expectNoSeriousViolations(page, `${path} at 375 px`);
    }
  },
);

test("every guide linked from /docs renders, and none points outside the product @desktop-only", async ({ page, request }) => {
  // It opens every guide and every page they link to.
  test.setTimeout(240_000);
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
