import type { Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousViolations, signInAsDemo, test } from "./support";

// The organization's system of record in the dashboard: a cheque recorded from the keyboard
// (the donor created inline), corrected and voided; a donor edited with an address and tags and
// found by tag; two records of one person merged, with the totals moving to the one kept; the
// receipt profile previewed on the settings page. Each page is checked with axe, at 1280 and
// 375 px (the desktop and phone projects).

const unique = (what: string) => `${what}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${what}: page wider than the screen`).toBeLessThanOrEqual(client);
}

/** Presses Tab until `target` has the focus (a date input takes a Tab per part in Chromium). */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>, most = 6) {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  await expect(target).toBeFocused();
}

/**
 * Records a cheque on "Record a gift" with the keyboard only: amount, Tab past the date and the
 * method, the reference, Tab past the campaign, the donor typed and picked (a new one, created
 * inline with their email), Enter. Answers the new gift's page URL.
 */
async function recordCheque(page: Page, gift: { amount: string; reference: string; first: string; last: string; email: string }) {
  await page.goto(`/dashboard/${DEMO.orgSlug}/donations/record`);
  const amount = page.getByRole("textbox", { name: "Amount" });
  // Into the first field; from there on, only the keyboard.
  await amount.focus();
  await page.keyboard.type(gift.amount);
  // Past the date (today) and the method (Cheque).
  await tabTo(page, page.getByRole("textbox", { name: /Reference/ }));
  await page.keyboard.type(gift.reference);
  // Past the campaign (the first active one).
  await tabTo(page, page.getByRole("combobox", { name: "Find a donor" }));
  await page.keyboard.type(`${gift.first} ${gift.last}`);
  const create = page.getByRole("option", { name: new RegExp(`New donor: ${gift.first} ${gift.last}`) });
  await expect(create).toBeVisible();
  // "New donor" is the last choice, after any donor already found by that name: ↑ wraps to it.
  await page.keyboard.press("ArrowUp");
  await expect(create).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  // First and last name came from what was typed; the focus waits on the email.
  await expect(page.getByRole("textbox", { name: "First name" })).toHaveValue(gift.first);
  await expect(page.getByRole("textbox", { name: "Last name" })).toHaveValue(gift.last);
  await expect(page.getByRole("textbox", { name: /^Email/ })).toBeFocused();
  await page.keyboard.type(gift.email);
  await page.keyboard.press("Enter");
  const done = page.locator(".notice").filter({ hasText: "Gift recorded" });
  await expect(done).toContainText(`from ${gift.first} ${gift.last}`);
  // Ready for the next cheque: the amount is empty and focused again.
  await expect(amount).toHaveValue("");
  await expect(amount).toBeFocused();
  return done;
}

test.describe("the system of record", () => {
  test.describe.configure({ timeout: 180_000 });

  test("record a cheque with the keyboard, then correct it and void it", async ({ page }) => {
    await signInAsDemo(page);
    await page.goto(`/dashboard/${DEMO.orgSlug}/donations`);
    await page.getByRole("link", { name: "Record a gift" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Record a gift");
    await expectNoSeriousViolations(page, "Record a gift");
    await expectNoSidewaysScroll(page, "Record a gift");

    const last = unique("Cheque");
    const done = await recordCheque(page, {
      amount: "125.00",
      reference: "Cheque 2041",
      first: "Rita",
      last,
      // Longer than a phone's timeline is wide: "Receipt email to <it>" must wrap, not widen the page.
      email: `${last.toLowerCase()}.receipts@example.org`,
    });
    await expectNoSeriousViolations(page, "Record a gift, after a gift");
    await done.getByRole("link", { name: "View the gift" }).click();

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Donation $125");
    const details = page.locator("#details");
    await expect(details).toContainText("Recorded by staff");
    await expect(details).toContainText("Cheque · Cheque 2041");
    await expect(details.getByRole("link", { name: /^\d{4}-\d{6}/ })).toBeVisible();
    await expectNoSeriousViolations(page, "an offline gift");
    await expectNoSidewaysScroll(page, "an offline gift");

    await test.step("correct the amount", async () => {
      await page.getByRole("button", { name: "Correct" }).click();
      const correctAmount = page.locator("#cg-amount");
      await expect(correctAmount).toBeFocused();
      await correctAmount.fill("130.00");
      await expectNoSeriousViolations(page, "correcting a gift");
      await page.getByRole("button", { name: "Save correction" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Donation $130");
    });

    await test.step("void it: the reason is required, then the gift is Voided and its receipt void", async () => {
      await page.getByRole("button", { name: "Void", exact: true }).click();
      await page.getByRole("button", { name: /Yes, void/ }).click();
      await expect(page.locator("#cg-reason-error")).toContainText("Say why");
      await page.getByRole("textbox", { name: "Reason" }).fill("Cheque bounced");
      await page.getByRole("button", { name: /Yes, void/ }).click();
      await expect(details).toContainText("Voided");
      await expect(details).toContainText("Cheque bounced");
      await expect(details).toContainText("void");
      await expectNoSeriousViolations(page, "a voided gift");
    });
  });

  test("edit a donor with an address and tags, and find them by tag", async ({ page }) => {
    await signInAsDemo(page);
    const last = unique("Tagged");
    const email = `${last.toLowerCase()}@example.org`;
    await recordCheque(page, { amount: "40", reference: "Cheque 7", first: "Tomas", last, email });

    await page.goto(`/dashboard/${DEMO.orgSlug}/donors?q=${encodeURIComponent(email)}`);
    await page
      .getByRole("link", { name: new RegExp(`Tomas ${last}`) })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`Tomas ${last}`);
    await page.getByRole("textbox", { name: /Phone/ }).fill("+1 555 0100");
    await page.getByRole("textbox", { name: "Address line 1" }).fill("12 Orchard Lane");
    await page.getByRole("textbox", { name: "City" }).fill("Springfield");
    await page.getByRole("textbox", { name: /Postal code/ }).fill("62701");
    await page.getByRole("combobox", { name: "Country" }).selectOption("US");
    const tag = unique("gala-").toLowerCase();
    await page.getByRole("textbox", { name: /Tags/ }).fill(`${tag}, board`);
    await page.getByRole("button", { name: "Save donor" }).click();
    await expect(page.getByText("Donor saved")).toBeVisible();
    await expect(page.getByRole("link", { name: tag })).toBeVisible();
    await expectNoSeriousViolations(page, "an edited donor");
    await expectNoSidewaysScroll(page, "an edited donor");

    await page.reload();
    await expect(page.getByRole("textbox", { name: "Address line 1" })).toHaveValue("12 Orchard Lane");
    await expect(page.getByRole("textbox", { name: /Phone/ })).toHaveValue("+1 555 0100");

    await page.getByRole("link", { name: tag }).click();
    await expect(page).toHaveURL(new RegExp(`tag=${tag}`));
    await expect(page.getByRole("link", { name: new RegExp(`Tomas ${last}`) })).toBeVisible();
    await expectNoSeriousViolations(page, "donors filtered by tag");
  });

  test("merge two records of one person: the totals move to the one kept", async ({ page }) => {
    await signInAsDemo(page);
    const last = unique("Merge");
    const kept = `${last.toLowerCase()}@example.org`;
    const other = `${last.toLowerCase()}@work.example.org`;
    await recordCheque(page, { amount: "100", reference: "Cheque 1", first: "Mia", last, email: kept });
    await recordCheque(page, { amount: "50", reference: "Cheque 2", first: "Mia", last, email: other });

    await page.goto(`/dashboard/${DEMO.orgSlug}/donors?q=${encodeURIComponent(kept)}`);
    await page
      .getByRole("link", { name: new RegExp(`Mia ${last}`) })
      .first()
      .click();
    const stats = page.locator(".stats");
    await expect(stats).toContainText("$100");
    const duplicates = page.getByRole("list", { name: "Possible duplicates" });
    await expect(duplicates).toContainText(other);
    await expect(duplicates).toContainText("$50");
    await expectNoSeriousViolations(page, "a donor with a possible duplicate");
    await expectNoSidewaysScroll(page, "a donor with a possible duplicate");

    await duplicates.getByRole("button", { name: `Merge ${other} into this donor` }).click();
    await page.getByRole("button", { name: "Confirm merge" }).click();
    await expect(page.getByText("Donors merged")).toBeVisible();
    await expect(stats).toContainText("$150");
    await expect(stats).toContainText("2");
    await expect(page.getByRole("link", { name: /\(\$\d+ donation\)/ })).toHaveCount(2);
    await expect(page.getByRole("list", { name: "Possible duplicates" })).toHaveCount(0);

    // The other record is gone from the list.
    await page.goto(`/dashboard/${DEMO.orgSlug}/donors?q=${encodeURIComponent(other)}`);
    await expect(page.getByRole("link", { name: new RegExp(`Mia ${last}`) })).toHaveCount(0);
  });

  test("settings: the receipt profile's preview follows the choice before it is saved", async ({ page }) => {
    await signInAsDemo(page);
    await page.goto(`/dashboard/${DEMO.orgSlug}/settings`);
    const receipts = page.locator("#receipts");
    const preview = receipts.getByRole("region", { name: /Preview/ });
    await receipts.getByRole("radio", { name: /Canada/ }).check();
    await expect(preview).toContainText("Official receipt for income tax purposes");
    await expect(preview).toContainText("Eligible amount of gift for tax purposes");
    await receipts.getByRole("radio", { name: /United Kingdom/ }).check();
    await expect(preview).toContainText("Gift Aid");
    await receipts.getByRole("radio", { name: /United States/ }).check();
    await expect(preview).toContainText("The amount deductible for federal income tax purposes");
    await expectNoSeriousViolations(page, "settings with the receipt preview");
    await expectNoSidewaysScroll(page, "settings with the receipt preview");
  });
});
