import type { Page } from "@playwright/test";
import { DEMO, expect, test } from "./support";

// The donate page's script words the form's live figures itself (public/donate-page.js: the
// catalog's ICU messages, money in the page's language), while the server words the same figures
// with use-intl and lib/money.ts when it renders the page. In every language, a gift the server
// renders (a reminder's link opens it: `?amount=` and `?frequency=`) must read exactly as the same
// gift chosen on the page, where the script wrote it.

const DONATE = `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`;

/** What the form shows that depends on the gift: the summary, the match, the frequency's hint, the fee's offer. */
function figures(page: Page) {
  return page.evaluate(() => {
    const text = (e: Element | null | undefined) => e?.textContent?.replace(/\s+/g, " ").trim() ?? null;
    const fees = document.querySelector<HTMLInputElement>('input[name="coverFees"]');
    return {
      summary: text(document.querySelector("[data-live=summary]")),
      match: text(document.querySelector("[data-live=match]")),
      frequency: text(document.querySelector("[data-live=frequencyHint]")),
      fee: text(fees?.labels?.[0]),
      feeHint: text(fees && document.getElementById(`${fees.id}-hint`)),
    };
  });
}

for (const lang of ["en", "es", "fr", "de"]) {
  test(`?lang=${lang}: the figures the script writes read as the server writes them`, { tag: "@desktop-only" }, async ({ page }) => {
    // A suggested amount, monthly.
    await page.goto(`${DONATE}?lang=${lang}&amount=10000&frequency=MONTH`);
    const rendered = await figures(page);
    expect(rendered.summary).toBeTruthy();
    await page.goto(`${DONATE}?lang=${lang}`);
    await page.locator('input[name="amount"][value="10000"]').check();
    await page.locator('input[name="recurringInterval"][value="MONTH"]').check();
    expect(await figures(page)).toEqual(rendered);

    // An amount of one's own, with cents, once: typed as the page's language writes it.
    await page.goto(`${DONATE}?lang=${lang}&amount=123456`);
    const typed = await page.locator('input[name="amount.custom"]').inputValue();
    const custom = await figures(page);
    await page.goto(`${DONATE}?lang=${lang}`);
    await page.locator('input[name="amount.custom"]').fill(typed);
    expect(await figures(page)).toEqual(custom);
    await expect(page.locator('input[name="amount"]:checked')).toHaveCount(0);
  });
}
