import type { Page } from "@playwright/test";
import { DEMO, expect, signInAsDemo, test } from "./support";

// At a laptop's 1280 px, every dashboard table fits its page: none scrolls sideways and cuts off
// its last column (a row's actions, an email's status, what an audit entry changed).

/** The demo's dashboard pages with tables, and a detail page of each kind that has one. */
async function dashboardPages(page: Page): Promise<string[]> {
  const base = `/dashboard/${DEMO.orgSlug}`;
  const lists = ["", "/campaigns", "/donations", "/donors", "/recurring", "/emails", "/reports", "/statements", "/members"];
  const more = ["/api-access", "/webhooks", "/audit-log", "/settings", "/settings/payouts"];
  const pages = [...lists, ...more].map((p) => `${base}${p}`);
  // The first row's own page of each list that links to one.
  for (const [list, pattern] of [
    ["/campaigns", /\/campaigns\/cmp_/],
    ["/donations", /\/donations\/don_/],
    ["/donors", /\/donors\/[a-z]+_[^/]+$/],
    ["/emails", /\/emails\/[^/?]+$/],
  ] as const) {
    await page.goto(`${base}${list}`);
    const hrefs = await page.locator("table a[href]").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    const first = hrefs.find((h) => pattern.test(h));
    if (first) pages.push(first);
  }
  return pages;
}

test.describe("dashboard tables at 1280 px", () => {
  // The desktop project's viewport is 1280 px wide (playwright.config.ts).
  test("no table scrolls sideways: each one's scroll width equals its client width", { tag: "@desktop-only" }, async ({ page }) => {
    expect(page.viewportSize()?.width).toBe(1280);
    test.setTimeout(180_000);
    await signInAsDemo(page);
    const pages = await dashboardPages(page);
    expect(pages.length).toBeGreaterThan(14);
    const overflowing: string[] = [];
    let tables = 0;
    for (const url of pages) {
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      const found = await page.locator("table").evaluateAll((ts) =>
        ts.map((t) => {
          const wrap = t.parentElement!;
          return {
            label: wrap.getAttribute("aria-label") ?? t.querySelector("caption")?.textContent ?? "",
            scroll: wrap.scrollWidth,
            client: wrap.clientWidth,
          };
        }),
      );
      tables += found.length;
      for (const f of found) if (f.scroll > f.client) overflowing.push(`${url} "${f.label}": ${f.scroll} > ${f.client}`);
      const doc = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      if (doc.scroll > doc.client) overflowing.push(`${url} (the page): ${doc.scroll} > ${doc.client}`);
    }
    expect(tables).toBeGreaterThan(10);
    expect(overflowing).toEqual([]);
  });
});
