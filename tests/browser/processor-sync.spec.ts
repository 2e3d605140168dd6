import AxeBuilder from "@axe-core/playwright";
import { DEMO, expect, signedInTest } from "./support";

// The overview's card about reconciliation with the payment processor: it says when Goodfund
// last compared its records with the processor (or that it has not yet) and what that fixed,
// fits a phone without sideways scrolling, and has no serious axe finding.

signedInTest("overview: the processor sync card, on a phone too, with no serious axe finding", async ({ page }) => {
  await page.goto(`/dashboard/${DEMO.orgSlug}`);
  const card = page.getByRole("region", { name: "Sync with the payment processor" });
  await expect(card).toBeVisible();
  await expect(card).toContainText(/Last checked|Not checked yet/);
  await expect(card).toContainText(/Nothing needed fixing|recovered/);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  const axe = await new AxeBuilder({ page }).include("#processor-sync").withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  expect(axe.passes.length).toBeGreaterThan(0);
});
