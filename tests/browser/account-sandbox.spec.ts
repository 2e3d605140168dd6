import { DEMO, demoCampaign, donorContext, expect, mailboxWithDonorLink, monthlyGift, test } from "./support";

// In sandbox mode no page asks Stripe for anything: the donor account, with a monthly plan whose
// card could be changed, loads no Stripe.js (it would only fail, offline or blocked, with console errors).
test("the donor account in sandbox mode loads no Stripe.js", async ({ request, browser, page }, info) => {
  const run = `${Date.now().toString(36)}-${info.project.name}`;
  const donor = { firstName: "Lin", lastName: "Sandbox", email: `lin.${run}@example.org` };
  await monthlyGift(request, (await demoCampaign(request)).id, donor);

  const context = await donorContext(browser, info, { viewport: page.viewportSize() ?? undefined });
  const donorPage = await context.newPage();
  const stripe: string[] = [];
  donorPage.on("request", (r) => {
    if (/stripe\.(com|network)/.test(new URL(r.url()).hostname)) stripe.push(r.url());
  });
  donorPage.on("console", (m) => {
    if (m.type() === "error" && /stripe/i.test(m.text())) stripe.push(m.text());
  });

  await donorPage.goto(`/o/${DEMO.orgSlug}/account`);
  await donorPage.getByRole("textbox", { name: "Email address" }).fill(donor.email);
  await donorPage.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(donorPage.getByRole("status")).toContainText(donor.email);
  await (await mailboxWithDonorLink(donorPage, donor.email)).click();
  await donorPage.getByRole("button", { name: "Continue to your account" }).click();
  await donorPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
  await expect(donorPage.getByRole("region", { name: "Recurring gifts" })).toContainText("Monthly");
  await donorPage.waitForLoadState("networkidle");
  expect(stripe).toEqual([]);
  await context.close();
});
