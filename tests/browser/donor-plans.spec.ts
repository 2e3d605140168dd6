import type { Page } from "@playwright/test";
import {
  DEMO,
  demoCampaign,
  donorContext,
  expect,
  expectNoSeriousViolations as expectNoSeriousViolationsNow,
  monthlyGift,
  signInAsDemo,
  test,
  mailboxWithDonorLink,
} from "./support";

// A donor manages a monthly gift from their account page: a typo in the new amount is explained
// next to the field, the amount changes from the next charge on, the card is replaced with the
// sandbox card form, and the gift is canceled after a confirmation step; the staff dashboard then
// says the donor canceled it. Driven by the keyboard, with axe, at desktop and phone widths.

async function expectNoSeriousViolations(page: Page, what: string) {
  // The page as it settles: after an action the account page refreshes its data, and while the
  // new render streams in, the document's <title> can be briefly absent.
  await expect(page).toHaveTitle(/\S/);
  await expectNoSeriousViolationsNow(page, what);
}

/** Signs the donor in the way they would: a link asked for on the account page, opened from the sandbox mailbox. */
async function signInDonor(page: Page, email: string) {
  await page.goto(`/o/${DEMO.orgSlug}/account`);
  await page.getByRole("textbox", { name: "Email address" }).fill(email);
  await page.getByRole("textbox", { name: "Email address" }).press("Enter");
  await expect(page.getByRole("status")).toContainText("works once, within 15 minutes");
  await (await mailboxWithDonorLink(page, email)).click();
  await page.getByRole("button", { name: "Continue to your account" }).click();
  await page.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
}

test.describe("donor account: recurring gifts", () => {
  test.describe.configure({ timeout: 180_000 });

  test("change a monthly gift's amount, replace its card, cancel it; the dashboard says the donor canceled", async ({
    page,
    request,
    browser,
  }, info) => {
    const run = `${Date.now().toString(36)}-${info.project.name}`;
    const donor = { firstName: "Katherine", lastName: "Johnson", email: `katherine.${run}@example.org` };
    const campaign = await demoCampaign(request);
    await monthlyGift(request, campaign.id, donor);

    const context = await donorContext(browser, info, { viewport: page.viewportSize() ?? undefined });
    const donorPage = await context.newPage();
    await signInDonor(donorPage, donor.email);
    const plans = donorPage.getByRole("region", { name: "Recurring gifts" });
    const plan = plans.getByRole("listitem").filter({ hasText: String(campaign.title) });
    await expect(plan).toHaveCount(1);
    await expect(plan).toContainText("$25.00 a month");
    await expect(plan).toContainText("Active");
    await expect(plan).toContainText(/Next charge/);

    await test.step("change the amount by keyboard: a typo is explained by the field, then the new amount holds", async () => {
      const change = plan.getByRole("button", { name: "Change amount" });
      await change.focus();
      await donorPage.keyboard.press("Enter");
      const field = plan.getByRole("textbox", { name: "New amount a month (USD)" });
      await expect(field).toBeFocused();
      await expect(change).toHaveAttribute("aria-expanded", "true");
      await expectNoSeriousViolations(donorPage, "account page, amount form open");
      await donorPage.keyboard.press("ControlOrMeta+A");
      await donorPage.keyboard.type("12.345");
      await donorPage.keyboard.press("Enter");
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription(/Use at most two decimal places/);
      await expect(field).toBeFocused();
      await field.fill("40");
      await donorPage.keyboard.press("Enter");
      await expect(plan.getByRole("status")).toHaveText("Your gift is now $40.00 a month, from the next charge on.");
      await expect(plan).toContainText("$40.00 a month");
      await expect(field).toHaveCount(0);
      await expect(change).toBeFocused();
    });

    await test.step("replace the card with the sandbox card form: a declined card is explained, an accepted one is saved", async () => {
      await plan.getByRole("button", { name: "Replace card" }).click();
      const form = plan.getByRole("region", { name: "Replace your card" });
      await expect(form.getByRole("textbox", { name: "Card number" })).toBeVisible();
      await form.getByRole("textbox", { name: "Card number" }).fill("4000000000000002");
      await form.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
      await form.getByRole("textbox", { name: "Security code" }).fill("123");
      await form.getByRole("button", { name: "Save card" }).click();
      await expect(form.getByText("Your card was declined.")).toBeVisible();
      await form.getByRole("textbox", { name: "Card number" }).fill("4242424242424242");
      await form.getByRole("button", { name: "Save card" }).click();
      await expect(plan.getByRole("status")).toHaveText("Your new card is saved. The next charges of this gift will use it.");
    });

    await test.step("cancel: a confirmation step first, then the gift is canceled", async () => {
      await plan.getByRole("button", { name: "Cancel gift" }).click();
      const confirm = plan.getByRole("region", { name: "Cancel your monthly gift?" });
      await expect(confirm.getByRole("heading", { name: "Cancel your monthly gift?" })).toBeFocused();
      await expect(confirm).toContainText("$40.00 a month");
      await expectNoSeriousViolations(donorPage, "account page, cancel confirmation open");
      // "Keep my gift" changes nothing.
      await confirm.getByRole("button", { name: "Keep my gift" }).click();
      await expect(plan.getByRole("button", { name: "Cancel gift" })).toBeFocused();
      await expect(plan).toContainText("Active");
      await donorPage.keyboard.press("Enter");
      await plan.getByRole("button", { name: "Yes, cancel my gift" }).click();
      await expect(plan).toContainText("Canceled");
      await expect(plan.getByRole("button", { name: "Change amount" })).toHaveCount(0);
      await expect(donorPage.getByRole("status").filter({ hasText: "Your monthly gift is canceled" })).toBeVisible();
      const width = await donorPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(width, "no sideways scroll").toBeLessThanOrEqual(0);
      await expectNoSeriousViolations(donorPage, "account page, plan canceled");
    });
    await context.close();

    await test.step("the staff dashboard's recurring plans say the donor canceled it", async () => {
      await signInAsDemo(page);
      await page.goto(`/dashboard/${DEMO.orgSlug}/recurring?status=CANCELED`);
      const row = page.getByRole("row").filter({ hasText: donor.email });
      await expect(row).toContainText("Canceled by donor");
      await expect(row).toContainText("$40");
    });
  });
});
