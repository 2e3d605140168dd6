import type { Locator, Page } from "@playwright/test";
import {
  DEMO,
  donorContext,
  expect,
  expectNoSeriousViolations,
  giveThroughApi,
  money,
  publicCampaign,
  signInAsDemo,
  test,
} from "./support";

// Peer-to-peer for real: a supporter starts a page from the campaign's donate page, confirms it
// from the sandbox mailbox (Continue-button pattern), lands signed in on their account page,
// edits the story and copies the share link; a donor gives to it; the supporter sees the gift;
// staff see the page in the campaign's Fundraisers tab. Axe on each page, desktop and phone.

const P2P = "run-for-riverside";

/** The sandbox mailbox's link for a supporter's fundraiser confirmation (reloaded until it shows). */
async function mailboxWithFundraiserLink(page: Page, email: string): Promise<Locator> {
  const link = page.getByRole("link", { name: `Open the fundraiser link for ${email}` }).first();
  await expect(async () => {
    await page.goto("/sandbox/mailbox");
    await expect(link).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  return link;
}

test.describe("supporter pages", () => {
  test.describe.configure({ timeout: 150_000 });

  test("start a page from the campaign → confirm by email → edit and share → a gift → the supporter and staff see it", async ({
    page,
    request,
    browser,
  }, info) => {
    const run = `${Date.now().toString(36)}-${info.project.name}`;
    const supporter = { firstName: "Ada", lastName: "Runner", email: `ada.${run}@example.org` };
    const title = `Ada runs ${run}`;
    const context = await donorContext(browser, info, { viewport: page.viewportSize() ?? undefined });
    const supporterPage = await context.newPage();

    await test.step("the peer-to-peer campaign's donate page offers Start a fundraiser", async () => {
      await supporterPage.goto(`/o/${DEMO.orgSlug}/donate/${P2P}`);
      const form = supporterPage.getByRole("region", { name: "Start a fundraiser" });
      await expect(form).toBeVisible();
      await expect(form.getByRole("radio", { name: "Start a team" })).toBeVisible();
      await expectNoSeriousViolations(supporterPage, "donate page with Start a fundraiser");
      await form.getByRole("textbox", { name: "First name" }).fill(supporter.firstName);
      await form.getByRole("textbox", { name: "Last name" }).fill(supporter.lastName);
      await form.getByRole("textbox", { name: "Email address" }).fill(supporter.email);
      await form.getByRole("textbox", { name: "Page title (optional)" }).fill(title);
      await form.getByRole("spinbutton", { name: /Your goal/ }).fill("500");
      await form.getByRole("button", { name: "Email me the link" }).click();
      await expect(form.getByRole("status")).toContainText("Check your email");
    });

    await test.step("the emailed link shows a Create my page button; continuing signs the supporter in", async () => {
      const link = await mailboxWithFundraiserLink(supporterPage, supporter.email);
      await link.click();
      await supporterPage.waitForURL(/\/account\/fundraiser\?token=/);
      await expect(supporterPage.getByRole("heading", { level: 1, name: "Create your fundraiser page" })).toBeVisible();
      await expectNoSeriousViolations(supporterPage, "fundraiser confirmation page");
      await supporterPage.getByRole("button", { name: "Create my page" }).click();
      await supporterPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
      await expect(supporterPage.getByRole("region", { name: "Your fundraisers" })).toContainText(title);
    });

    let shareUrl = "";
    await test.step("the supporter edits the story and copies the share link", async () => {
      const mine = supporterPage.getByRole("region", { name: "Your fundraisers" });
      await expect(mine.getByRole("img", { name: `QR code of the page ${title}` })).toBeVisible();
      shareUrl =
        (await mine
          .getByRole("link", { name: /\/donate\// })
          .first()
          .getAttribute("href")) ?? "";
      expect(shareUrl).toContain(`/o/${DEMO.orgSlug}/donate/`);
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await mine.getByRole("button", { name: "Copy link" }).click();
      await expect(mine.getByRole("button", { name: "Link copied" })).toBeVisible();
      await mine.getByRole("button", { name: `Edit ${title}` }).click();
      await mine.getByRole("textbox", { name: "Your story" }).fill("I run 5 km for the food bank.");
      await mine.getByRole("button", { name: "Save" }).click();
      await expect(mine.getByRole("status")).toHaveText("Saved.");
      await expectNoSeriousViolations(supporterPage, "account page with fundraisers");
    });

    await test.step("a donor gives to the page; its public page shows the story and the gift", async () => {
      const slug = new URL(shareUrl).pathname.split("/").pop()!;
      const campaign = await publicCampaign(request, DEMO.orgSlug, slug);
      const gift = await giveThroughApi(request, campaign.id, {
        amount: 4200,
        email: `fan.${run}@example.org`,
        firstName: "Fan",
        lastName: "One",
      });
      expect(gift.status).toBe("SUCCEEDED");
      await supporterPage.goto(shareUrl);
      await expect(supporterPage.getByText("I run 5 km for the food bank.")).toBeVisible();
      await expectNoSeriousViolations(supporterPage, "supporter's public page");
    });

    await test.step("the supporter sees the gift on the account page", async () => {
      await supporterPage.goto(`/o/${DEMO.orgSlug}/account`);
      const mine = supporterPage.getByRole("region", { name: "Your fundraisers" });
      await expect(mine).toContainText("Fan One");
      await expect(mine).toContainText(money(42));
    });

    await test.step("staff see the page in the campaign's Fundraisers tab", async () => {
      await signInAsDemo(page);
      const parent = await publicCampaign(request, DEMO.orgSlug, P2P);
      await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns/${parent.id}/fundraisers`);
      await expect(page.getByRole("heading", { level: 1, name: "Fundraisers" })).toBeVisible();
      const row = page.getByRole("row").filter({ hasText: title });
      await expect(row).toContainText(`${supporter.firstName} ${supporter.lastName}`);
      await expect(row).toContainText(money(42));
      await expectNoSeriousViolations(page, "fundraisers tab");
    });
    await context.close();
  });
});
