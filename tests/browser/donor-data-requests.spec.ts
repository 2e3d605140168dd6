import { readFile } from "node:fs/promises";
import {
  DEMO,
  donorContext,
  expect,
  expectNoSeriousViolations,
  giveThroughApi,
  publicCampaign,
  test,
  mailboxWithDonorLink,
} from "./support";

// The account page's "Your data": a signed-in donor downloads their data as JSON, then erases
// their personal data after the confirmation panel (the demo organization does not review
// erasures, so it happens at once) and is signed out. Axe with the panel open; by keyboard.

test("account page: download my data, then erase my personal data and be signed out", async ({ browser, request }, info) => {
  test.setTimeout(120_000);
  const run = `${Date.now().toString(36)}${info.project.name}`;
  const donor = { firstName: `Marisol${run}`, lastName: "Quayle", email: `marisol.${run}@example.org` };
  const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
  await giveThroughApi(request, campaign.id, { amount: 2700, ...donor });

  const context = await donorContext(browser, info, { viewport: info.project.use.viewport ?? undefined });
  const page = await context.newPage();
  try {
    // Signed in the way donors are: a link by email, opened from the sandbox mailbox.
    const asked = await request.post(`/api/public/orgs/${DEMO.orgSlug}/donor-sessions`, { data: { email: donor.email } });
    expect(asked.status(), await asked.text()).toBe(202);
    await (await mailboxWithDonorLink(page, donor.email)).click();
    await page.getByRole("button", { name: "Continue to your account" }).click();
    await page.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);

    const section = page.getByRole("region", { name: "Your data" });
    await expect(section).toBeVisible();

    const downloading = page.waitForEvent("download");
    await section.getByRole("button", { name: "Download my data (JSON)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^donor-.+\.json$/);
    const data = JSON.parse(await readFile((await download.path())!, "utf8"));
    expect(data.donor).toMatchObject({ email: donor.email, firstName: donor.firstName });
    expect(data.donations).toEqual([expect.objectContaining({ amount: 2700, status: "SUCCEEDED" })]);
    expect(JSON.stringify(data)).not.toContain("paymentIntentId");

    // The confirmation panel, by keyboard: focus moves to its heading; Escape closes it.
    const opener = section.getByRole("button", { name: "Erase my personal data…" });
    await opener.focus();
    await page.keyboard.press("Enter");
    const panel = section.getByRole("region", { name: "Erase your personal data?" });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("heading", { name: "Erase your personal data?" })).toBeFocused();
    await expect(panel).toContainText("Your gifts stay");
    await expectNoSeriousViolations(page, "account page, erasure panel open");
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await panel.getByRole("button", { name: "Erase my data" }).click();
    await expect(section.getByRole("status")).toContainText("Your personal data was erased and you are signed out");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await context.cookies()).filter((c) => c.name.startsWith("gf_donor_"))).toEqual([]);

    await page.reload();
    await expect(page.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
    await expect(page.locator("main")).not.toContainText(donor.firstName);
  } finally {
    await context.close();
  }
});
