import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import {
  DEMO,
  donorContext,
  expect,
  expectNoSeriousViolations,
  giveThroughApi,
  publicCampaign,
  signInAsDemo,
  test,
  mailboxWithDonorLink,
} from "./support";

// Year-end statements end to end: staff set the statement details on the settings page (a
// validation message next to the field), send the year's statements from the Statements page
// (confirmation, queued, progress until nothing waits), the sandbox mailbox shows the email
// with its PDF attachment, and the donor, signed in from an emailed link, downloads their
// statement from their account page; pdftotext reads it. (That the emailed attachment and the
// download are the same bytes is checked in tests/integration/statements.test.ts.)

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${what}: page wider than the screen`).toBeLessThanOrEqual(client);
}

async function bytesOf(download: Download): Promise<Buffer> {
  return readFileSync((await download.path())!);
}

const pdfText = (pdf: Buffer) => execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");

test.describe("year-end statements", () => {
  test.describe.configure({ timeout: 300_000 });

  test("settings → send the year's statements → progress → mailbox attachment → the donor's download", async ({
    page,
    request,
    browser,
  }, info) => {
    const run = `${Date.now().toString(36)}-${info.project.name}`;
    const year = new Date().getUTCFullYear();
    const donor = { firstName: "Ada", lastName: `Statement ${run}`, email: `ada.statement.${run}@example.org` };
    const address = `${run} Harbour Road, Portsmouth`;
    const receiptStatement = `No goods or services were provided in exchange for these gifts (${run}).`;
    const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
    expect((await giveThroughApi(request, campaign.id, { amount: 4200, ...donor })).status).toBe("SUCCEEDED");

    await signInAsDemo(page);

    await test.step("settings: a too-long receipt statement is refused next to the field; the address and statement are saved", async () => {
      await page.goto(`/dashboard/${DEMO.orgSlug}/settings`);
      const statementField = page.getByRole("textbox", { name: /Receipt statement/ });
      await statementField.fill("x".repeat(2001));
      await statementField.press("Tab");
      await expect(page.locator("#os-receiptStatement-error")).toContainText("2000");
      await expect(statementField).toHaveAttribute("aria-invalid", "true");
      await statementField.fill(receiptStatement);
      await page.getByRole("textbox", { name: /Postal address/ }).fill(address);
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("Organization settings saved")).toBeVisible();
      await expectNoSeriousViolations(page, "settings page");
      await expectNoSidewaysScroll(page, "settings page");
    });

    await test.step("the Statements page sends the year's statements after a confirmation, and shows their progress", async () => {
      await page.goto(`/dashboard/${DEMO.orgSlug}/statements`);
      await expect(page.getByRole("heading", { level: 1, name: "Year-end statements" })).toBeVisible();
      await page.getByRole("combobox", { name: "Year" }).selectOption(String(year));
      await page.getByRole("button", { name: "Send statements…" }).click();
      const confirm = page.getByRole("group", { name: "Confirm sending statements" });
      await expect(confirm).toContainText(`Email ${year} statements`);
      // The confirmation takes focus; Escape backs out, by keyboard.
      await expect(confirm.getByRole("button", { name: "Yes, send statements" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(confirm).toHaveCount(0);
      await page.getByRole("button", { name: "Send statements…" }).click();
      await expectNoSeriousViolations(page, "statements page, confirming");
      await page.getByRole("button", { name: "Yes, send statements" }).click();
      await expect(page.getByText(new RegExp(`statements? for ${year} queued`))).toBeVisible();
      const runs = page.getByRole("region", { name: "Statement runs, newest first" });
      await expect(runs.getByRole("row").nth(1)).toContainText(String(year));
      // The worker sends them (kept in the outbox on this install); the page refreshes until nothing waits.
      await expect(runs.getByRole("row").nth(1).locator('td[data-label="Waiting"]')).toHaveText("0", { timeout: 150_000 });
      // A year already sent offers "Send again", with its own confirmation.
      await page.getByRole("button", { name: "Send again…" }).click();
      await expect(page.getByRole("group", { name: "Confirm sending statements" })).toContainText(
        `Send every ${year} donor their statement again?`,
      );
      await page.getByRole("button", { name: "Cancel" }).click();
      await expectNoSeriousViolations(page, "statements page");
      await expectNoSidewaysScroll(page, "statements page");
    });

    await test.step("the sandbox mailbox lists statement emails with their PDF attachment", async () => {
      await page.goto("/sandbox/mailbox");
      // The newest ones: every donor of the year got one, so this run's donor may be further down.
      const item = page.getByRole("list", { name: "Year-end statement emails" }).getByRole("listitem").first();
      await expect(item).toContainText(`Your ${year} giving statement from`);
      const [download] = await Promise.all([page.waitForEvent("download"), item.getByRole("link", { name: /Attachment/ }).click()]);
      const attached = await bytesOf(download);
      expect(attached.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdfText(attached)).toContain(`Giving statement for ${year}`);
      await expectNoSeriousViolations(page, "sandbox mailbox");
    });

    // The donor's own browser: signed in from an emailed link.
    const context = await donorContext(browser, info, { viewport: page.viewportSize() ?? undefined, acceptDownloads: true });
    const donorPage = await context.newPage();

    await test.step("the donor downloads their statement from their account page", async () => {
      const asked = await donorPage.request.post(`/api/public/orgs/${DEMO.orgSlug}/donor-sessions`, { data: { email: donor.email } });
      expect(asked.status()).toBe(202);
      await (await mailboxWithDonorLink(donorPage, donor.email)).click();
      await donorPage.getByRole("button", { name: "Continue to your account" }).click();
      await donorPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
      const statements = donorPage.getByRole("region", { name: "Year-end statements" });
      const [download] = await Promise.all([
        donorPage.waitForEvent("download"),
        statements.getByRole("link", { name: `Download the ${year} statement (PDF)` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`statement-${DEMO.orgSlug}-${year}.pdf`);
      const downloaded = await bytesOf(download);
      const text = pdfText(downloaded);
      for (const expected of [
        `Giving statement for ${year}`,
        `Prepared for ${donor.firstName} ${donor.lastName}`,
        donor.email,
        address,
        receiptStatement,
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).toContain("$42.00");
      expect(text).toMatch(/Total given in \d{4} \(1 gift\)\s+\$42\.00/);
    });
    await context.close();
  });
});
