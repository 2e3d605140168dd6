import type { Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousViolations, signedInTest } from "./support";

// The audit log page: the demo owner's own changes are listed newest first, as cards on a phone
// without sideways scrolling; "Load more" works from the keyboard; the action filter narrows it.

/** An API call from the page itself (same origin, with the session cookie), as the dashboard makes them. */
async function apiFromPage(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

signedInTest("audit log page: newest first, Load more from the keyboard, filtered by action, no serious axe finding", async ({ page }) => {
  await page.goto(`/dashboard/${DEMO.orgSlug}/audit-log`);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();

  // A draft edited 26 times: more than one page of entries, all the demo owner's.
  const created = await apiFromPage(page, "POST", `/api/orgs/${DEMO.orgSlug}/campaigns`, { title: `Audit draft ${Date.now()}` });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  try {
    for (let i = 1; i <= 26; i++) {
      expect((await apiFromPage(page, "PATCH", `/api/campaigns/${id}`, { title: `Audit draft edit ${i}` })).status).toBe(200);
    }

    await page.goto(`/dashboard/${DEMO.orgSlug}/audit-log`);
    const table = page.getByRole("region", { name: "Audit log" });
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText("Campaign edited");
    await expect(rows.first()).toContainText("Title: Audit draft edit 26");
    await expect(rows.first()).toContainText(DEMO.email);

    // No sideways scrolling, on a phone too (entries are cards there).
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await expectNoSeriousViolations(page, "audit log");

    // Load more with the keyboard: focus lands on the first new entry.
    await page.getByRole("link", { name: "Load more entries" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => rows.count()).toBeGreaterThan(25);
    await expect(rows.nth(25).locator("td").first()).toBeFocused();
    await expect(rows.nth(25)).toContainText("Campaign edited");

    // The action filter: only campaign creations.
    await page.getByLabel("Action").selectOption("campaign.created");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/action=campaign\.created/);
    await expect(rows.first()).toContainText("Campaign created");
    await expect(table).not.toContainText("Campaign edited");
  } finally {
    expect((await apiFromPage(page, "DELETE", `/api/campaigns/${id}`)).status).toBe(204);
  }
});
