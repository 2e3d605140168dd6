import {
  DEMO,
  donorContext,
  expect,
  expectEveryClassStyled,
  expectNoSeriousViolations,
  giveThroughApi,
  money,
  publicCampaign,
  signInAsDemo,
  test,
  mailboxWithDonorLink,
} from "./support";

// A donor's own account: from the receipt email's link to the account page, a sign-in link
// asked for there and opened from the sandbox mailbox, "Continue to your account", their gifts
// with receipts; then sign-out. Axe on each page, at the project's width (desktop and phone).

test.describe("donor account", () => {
  test.describe.configure({ timeout: 120_000 });

  test("receipt email → account page → emailed sign-in link → continue → gifts → sign out", async ({ page, request, browser }, info) => {
    const run = `${Date.now().toString(36)}-${info.project.name}`;
    const donor = { firstName: "Grace", lastName: "Hopper", email: `grace.${run}@example.org` };
    const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
    const gift = await giveThroughApi(request, campaign.id, { amount: 3500, ...donor });
    expect(gift.status).toBe("SUCCEEDED");

    let accountUrl = "";
    await test.step("the receipt email links to the donor's account page", async () => {
      await signInAsDemo(page);
      await page.goto(`/dashboard/${DEMO.orgSlug}/emails`);
      const receipt = page.getByRole("row").filter({ hasText: donor.email }).filter({ hasText: "Donation receipt" });
      await expect(receipt).toHaveCount(1);
      await receipt.getByRole("link").first().click();
      const email = page.getByRole("region", { name: "As the recipient sees it" }).frameLocator("iframe").locator("body");
      const link = email.getByRole("link", { name: "your donor account" });
      await expect(link).toBeVisible();
      accountUrl = (await link.getAttribute("href")) ?? "";
      expect(new URL(accountUrl).pathname).toBe(`/o/${DEMO.orgSlug}/account`);
    });

    // The donor's own browser: no staff session.
    const context = await donorContext(browser, info, { viewport: page.viewportSize() ?? undefined });
    const donorPage = await context.newPage();

    await test.step("signed out, the account page offers a sign-in link by email, and says so without telling whether the address is known", async () => {
      await donorPage.goto(accountUrl);
      await expect(donorPage.getByRole("heading", { level: 1, name: "Your donor account" })).toBeVisible();
      await expectNoSeriousViolations(donorPage, "account page, signed out");
      // By keyboard: the skip link, then into the form.
      await donorPage.keyboard.press("Tab");
      await expect(donorPage.getByRole("link", { name: "Skip to content" })).toBeFocused();
      await donorPage.getByRole("textbox", { name: "Email address" }).fill(donor.email.toUpperCase());
      await donorPage.getByRole("textbox", { name: "Email address" }).press("Enter");
      const status = donorPage.getByRole("status");
      await expect(status).toContainText("If " + donor.email.toUpperCase() + " is the address of a donor");
      await expect(status).toContainText("works once, within 15 minutes");
    });

    let signInUrl = "";
    await test.step("the sandbox mailbox has the link; opening it only shows a Continue button", async () => {
      const link = await mailboxWithDonorLink(donorPage, donor.email);
      const item = donorPage.getByRole("listitem").filter({ hasText: donor.email }).first();
      await expect(item.getByText("Valid for 15 minutes (once)")).toBeVisible();
      signInUrl = (await link.getAttribute("href")) ?? "";
      await link.click();
      await donorPage.waitForURL(/\/account\/sign-in\?token=/);
      await expect(donorPage.getByRole("heading", { level: 1, name: "Sign in to your account" })).toBeVisible();
      await expectNoSeriousViolations(donorPage, "sign-in page");
    });

    await test.step("continue: the account page lists the gift with its receipt", async () => {
      await donorPage.getByRole("button", { name: "Continue to your account" }).click();
      await donorPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
      await expect(donorPage.getByRole("heading", { level: 1 })).toHaveText(`Welcome back, ${donor.firstName}`);
      const gifts = donorPage.getByRole("region", { name: "Your gifts" });
      await expect(gifts.getByRole("listitem")).toHaveCount(1);
      await expect(gifts).toContainText(money(35));
      await expect(gifts).toContainText(String(campaign.title));
      await expect(donorPage.getByRole("region", { name: "Recurring gifts" })).toContainText("You have no monthly or yearly gifts.");
      await expect(donorPage.getByRole("region", { name: "Year-end statements" })).toContainText(String(new Date().getUTCFullYear()));
      await expectNoSeriousViolations(donorPage, "account page, signed in");
      await expectEveryClassStyled(donorPage, "account page, signed in");
      // The gift's receipt itself: its PDF, downloaded with the donor's cookie.
      const [receipt] = await Promise.all([donorPage.waitForEvent("download"), gifts.getByRole("link", { name: /^Receipt/ }).click()]);
      expect(receipt.suggestedFilename()).toMatch(new RegExp(`^receipt-${DEMO.orgSlug}-.+\\.pdf$`));
    });

    await test.step("opened again while signed in, the used link goes on to the account page", async () => {
      await donorPage.goto(signInUrl);
      await donorPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
      await expect(donorPage.getByRole("heading", { level: 1 })).toHaveText(`Welcome back, ${donor.firstName}`);
    });

    await test.step("sign out: the account page is signed out again", async () => {
      await donorPage.goto(accountUrl);
      await donorPage.getByRole("button", { name: "Sign out" }).click();
      await expect(donorPage.getByRole("heading", { level: 1, name: "Your donor account" })).toBeVisible();
      await expect(donorPage.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
      expect((await context.cookies()).filter((c) => c.name.startsWith("gf_donor_"))).toEqual([]);
    });
    await test.step("the link worked once: opened again after signing out, it says it expired or was used", async () => {
      await donorPage.goto(signInUrl);
      await expect(donorPage.getByRole("heading", { level: 1, name: "This sign-in link has expired or was already used" })).toBeVisible();
      await expect(donorPage.getByRole("button", { name: "Email me a new sign-in link" })).toBeVisible();
      await expectNoSeriousViolations(donorPage, "expired link page");
    });
    await context.close();
  });
});
