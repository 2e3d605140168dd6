import type { Page } from "@playwright/test";
import { DEMO, expect, money, signInAsDemo, test } from "./support";

// The whole story in one browser, desktop width: sign in, create an organization,
// connect payouts, create/edit/publish a campaign, give on its hosted page with the sandbox
// card, find the gift, the total and the receipt in the dashboard, refund it.

/** Fills the donate page's first step: amount button, name, email; then on to payment. */
async function fillGift(page: Page, gift: { amount: string; firstName: string; lastName: string; email: string }) {
  await page.getByRole("radio", { name: gift.amount, exact: true }).check();
  await page.getByRole("textbox", { name: "First name" }).fill(gift.firstName);
  await page.getByRole("textbox", { name: "Last name" }).fill(gift.lastName);
  await page.getByRole("textbox", { name: "Email" }).fill(gift.email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  // A new campaign offers a monthly gift once after a one-time choice: this donor keeps it one-time.
  const decline = page.getByRole("button", { name: /^No, give .+ once$/ });
  await expect(decline.or(page.getByRole("heading", { name: "Payment" }))).toBeVisible();
  if (await decline.isVisible()) await decline.click();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
}

/** The sandbox card form: number, a future expiry, a CVC, then the Pay button. */
async function payWithCard(page: Page, cardNumber: string, payLabel: RegExp) {
  const card = page.getByRole("textbox", { name: "Card number" });
  await card.fill(cardNumber);
  await page.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
  await page.getByRole("textbox", { name: "Security code" }).fill("123");
  await page.getByRole("button", { name: payLabel }).click();
}

test.describe("a new organization's first campaign and gift", () => {
  test.describe.configure({ timeout: 150_000 });

  test("sign in → organization → payouts → campaign → gift → dashboard → refund", async ({ page, context }) => {
    const run = Date.now().toString(36);
    const orgName = `Browser Test Fund ${run}`;
    const firstTitle = `Library Books ${run}`;
    const title = `Library Books for Everyone ${run}`;
    const donor = { firstName: "Ada", lastName: "Lovelace", email: `ada.${run}@example.org` };

    await test.step("sign in with the sandbox's one-click demo account", async () => {
      await signInAsDemo(page);
    });

    let orgSlug = "";
    await test.step("create a new organization", async () => {
      await page.goto("/dashboard");
      await page.getByRole("link", { name: "New organization" }).click();
      await page.getByRole("textbox", { name: /^Organization name/ }).fill(orgName);
      await page.getByRole("button", { name: "Create organization" }).click();
      await page.waitForURL((u) => /^\/dashboard\/[a-z0-9-]+$/.test(u.pathname) && u.pathname !== `/dashboard/${DEMO.orgSlug}`);
      orgSlug = new URL(page.url()).pathname.split("/")[2];
      const h1 = page.getByRole("heading", { level: 1 });
      await expect(h1).toContainText(orgName);
      await expect(h1).toContainText("Onboarding");
    });

    await test.step("connect payouts through the sandbox onboarding page", async () => {
      await page.getByRole("button", { name: "Connect payouts" }).first().click();
      await page.waitForURL(/\/sandbox\/onboarding\/acct_sandbox_/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(orgName);
      await page.getByRole("button", { name: "Complete onboarding" }).click();
      await page.waitForURL(new RegExp(`/dashboard/${orgSlug}/settings/payouts\\?onboarding=done`));
      await expect(page.getByText("Payouts connected")).toBeVisible({ timeout: 20_000 });
      await page.goto(`/dashboard/${orgSlug}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Active");
      await expect(page.getByRole("button", { name: "Connect payouts" })).toHaveCount(0);
    });

    let campaignPath = "";
    await test.step("create a campaign in the editor and save it as a draft", async () => {
      await page.getByRole("link", { name: "New campaign" }).first().click();
      await expect(page.getByRole("heading", { level: 1, name: "New campaign" })).toBeVisible();
      await page.getByRole("textbox", { name: /^Title/ }).fill(firstTitle);
      await page.getByRole("textbox", { name: /^Goal/ }).fill("1000");
      await page.getByRole("textbox", { name: /^Description/ }).fill("New books for the children's corner of our library.");
      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL((u) => u.pathname.startsWith(`/dashboard/${orgSlug}/campaigns/cmp_`));
      campaignPath = new URL(page.url()).pathname;
      const h1 = page.getByRole("heading", { level: 1 });
      await expect(h1).toContainText(firstTitle);
      await expect(h1).toContainText("Draft");
      await expect(page.getByRole("textbox", { name: /^Goal/ })).toHaveValue("1000");
    });

    await test.step("edit it: a new title", async () => {
      const field = page.getByRole("textbox", { name: /^Title/ });
      await field.fill(title);
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status").getByText("Changes saved")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
      await page.reload();
      await expect(page.getByRole("textbox", { name: /^Title/ })).toHaveValue(title);
    });

    await test.step("publish it", async () => {
      await page.getByRole("button", { name: `Publish ${title}` }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Active");
      await expect(page.getByRole("link", { name: /View donate page/ })).toBeVisible();
    });

    let donatePage: Page = page;
    await test.step("open its hosted donate page", async () => {
      const popup = context.waitForEvent("page");
      await page.getByRole("link", { name: /View donate page/ }).click();
      donatePage = await popup;
      await donatePage.waitForLoadState();
      expect(new URL(donatePage.url()).pathname).toMatch(new RegExp(`^/o/${orgSlug}/donate/[a-z0-9-]+$`));
      await expect(donatePage.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(donatePage.getByRole("heading", { name: "Make a donation" })).toBeVisible();
    });

    let donationId = "";
    await test.step("give $25 with the sandbox card 4242", async () => {
      await fillGift(donatePage, { amount: "$25", ...donor });
      await payWithCard(donatePage, "4242 4242 4242 4242", /^Pay \$25(\.00)?$/);
      await donatePage.waitForURL(/\/thank-you\?donation=/);
      donationId = new URL(donatePage.url()).searchParams.get("donation") ?? "";
      expect(donationId).not.toBe("");
      await expect(donatePage.getByRole("heading", { level: 1 })).toHaveText(`Thank you, ${donor.firstName}!`, { timeout: 20_000 });
      await expect(donatePage.getByText(/A receipt is on its way/)).toBeVisible();
      await donatePage.close();
    });

    await test.step("the campaign's total is $25", async () => {
      await page.goto(campaignPath);
      const progress = page.getByRole("region", { name: "Progress" });
      await expect(progress).toContainText(money(25));
      await expect(progress).toContainText(/Donations\s*1/);
      await page.goto(`/dashboard/${orgSlug}/campaigns`);
      await expect(page.getByRole("row", { name: new RegExp(title) })).toContainText(money(25));
    });

    await test.step("the gift is in the donations list and its detail shows SUCCEEDED", async () => {
      await page.goto(`/dashboard/${orgSlug}/donations`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Donations");
      const row = page.getByRole("row").filter({ hasText: donor.email });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(money(25));
      await expect(row).toContainText(/succeeded/i);
      await row.getByRole("link").first().click();
      await page.waitForURL(new RegExp(`/dashboard/${orgSlug}/donations/${donationId}`));
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Donation");
      await expect(page.getByRole("region", { name: "Details" })).toContainText(/Status\s*Succeeded/i);
      await expect(page.getByRole("main")).toContainText(money(25));
      await expect(page.getByRole("main")).toContainText(donor.email);
    });

    await test.step("the receipt is in the Emails outbox", async () => {
      await page.goto(`/dashboard/${orgSlug}/emails`);
      await expect(page.getByRole("heading", { level: 1, name: "Emails" })).toBeVisible();
      // Written in the same transaction as the payment; listed with its recipient and template.
      const receipt = page.getByRole("row").filter({ hasText: donor.email }).filter({ hasText: "Donation receipt" });
      await expect(receipt).toHaveCount(1);
      await receipt.getByRole("link").first().click();
      // The rendered email, as the donor would get it: their name, the amount, the campaign.
      await expect(page.getByRole("heading", { level: 1 })).toContainText(`Thank you, ${donor.firstName}!`);
      const email = page.getByRole("region", { name: "As the recipient sees it" }).frameLocator("iframe").locator("body");
      await expect(email.getByRole("heading", { level: 1 })).toHaveText(`Thank you, ${donor.firstName}!`);
      await expect(email).toContainText(money(25));
      await expect(email).toContainText(title);
      await expect(email).toContainText(donationId);
    });

    await test.step("refund it: REFUNDED, and the total goes back to $0", async () => {
      await page.goto(`/dashboard/${orgSlug}/donations/${donationId}`);
      await page.getByRole("button", { name: "Refund donation" }).click();
      // The page asks first, inline, with the amount on the confirming button.
      const confirm = page.getByRole("group", { name: "Confirm the refund" }).getByRole("button", { name: /^Yes, refund \$25(\.00)?$/ });
      await expect(confirm).toBeFocused();
      await confirm.click();
      await expect(page.getByRole("region", { name: "Details" })).toContainText(/Status\s*Refunded/i, { timeout: 20_000 });
      await expect(page.getByRole("button", { name: "Refund donation" })).toHaveCount(0);

      await page.goto(`/dashboard/${orgSlug}/donations`);
      await expect(page.getByRole("row").filter({ hasText: donor.email })).toContainText(/refunded/i);
      await page.goto(campaignPath);
      const progress = page.getByRole("region", { name: "Progress" });
      await expect(progress).toContainText(money(0));
      await expect(progress).toContainText(/Donations\s*0/);
    });
  });

  test("a declined card says so next to the card number; the donor then pays with 4242", async ({ page }) => {
    const run = Date.now().toString(36);
    await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
    await fillGift(page, { amount: "$50", firstName: "Grace", lastName: "Hopper", email: `grace.${run}@example.org` });

    await payWithCard(page, "4000 0000 0000 0002", /^Pay \$50(\.00)?$/);
    const card = page.getByRole("textbox", { name: "Card number" });
    // The message is the card field's own error: described by it, marked invalid, focused.
    await expect(card).toHaveAccessibleDescription(/Your card was declined\./);
    await expect(card).toHaveAttribute("aria-invalid", "true");
    await expect(card).toBeFocused();
    await expect(page.getByText("Your card was declined.", { exact: false })).toBeVisible();
    expect(page.url()).not.toContain("thank-you");

    await card.fill("4242 4242 4242 4242");
    await expect(page.getByText("Your card was declined.", { exact: false })).toHaveCount(0);
    await page.getByRole("button", { name: /^Pay \$50(\.00)?$/ }).click();
    await page.waitForURL(/\/thank-you\?donation=/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you, Grace!", { timeout: 20_000 });
  });
});
