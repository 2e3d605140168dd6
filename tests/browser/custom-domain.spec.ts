import { DEMO, expect, expectNoSeriousViolations, signedInTest } from "./support";

// The settings page's custom domain: an admin sets one, sees it pending with the TXT record to
// add, presses Verify before the record exists and reads what is wrong. The suite's server asks a
// local DNS server that knows no record (tests/browser/global-setup.ts), so verification fails
// the way it does before the record is added.

signedInTest("settings page: a new custom domain is pending with its TXT record; Verify says what is wrong", async ({ page }, info) => {
  const domain = `give-${Date.now().toString(36)}-${info.project.name}.example.org`;
  await page.goto(`/dashboard/${DEMO.orgSlug}/settings`);
  const card = page.getByRole("region", { name: "Custom domain" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("No custom domain");

  try {
    // From the keyboard: type the domain, Enter saves it.
    await card.getByLabel("Custom domain").fill(domain);
    await card.getByLabel("Custom domain").press("Enter");
    await expect(card.getByText("Pending verification")).toBeVisible();
    await expect(card).toContainText(`Nothing is served on ${domain} until you prove it is yours`);
    await expect(card.getByLabel("Record name (TXT)")).toHaveValue(`_goodfund.${domain}`);
    const value = await card.getByLabel("Record value").inputValue();
    expect(value).toMatch(/^goodfund-verification=[0-9a-f]{32}$/);
    // The API says the same, and the donate pages stay on this site's address meanwhile.
    const org = await page.request.get(`/api/orgs/${DEMO.orgSlug}`);
    expect(await org.json()).toMatchObject({
      customDomain: domain,
      customDomainStatus: "PENDING",
      customDomainVerification: { type: "TXT", name: `_goodfund.${domain}`, value },
    });
    await expect(page.getByText(`https://${domain}`)).toHaveCount(0);
    await expectNoSeriousViolations(page, "settings page with a pending custom domain");

    await card.getByRole("button", { name: "Verify" }).click();
    const problem = card.getByRole("alert");
    await expect(problem).toContainText("Not verified yet");
    await expect(problem).toContainText(`No TXT record found at _goodfund.${domain}`);
    await expect(card.getByText("Pending verification")).toBeVisible();
    await expectNoSeriousViolations(page, "settings page after a failed verification");
    await card.screenshot({ path: `test-results/screenshots/custom-domain-failed-verify-${info.project.name}.png` });
    // Nothing overflows sideways on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Removing it: an empty field saves no domain.
    await card.getByLabel("Change the custom domain").fill("");
    await card.getByRole("button", { name: "Remove domain" }).click();
    await expect(card).toContainText("No custom domain");
    await expect(card.getByLabel("Record value")).toHaveCount(0);
  } finally {
    // Leave the demo organization as it was, whatever happened above.
    await page.request.patch(`/api/orgs/${DEMO.orgSlug}`, {
      data: { customDomain: null },
      headers: { origin: new URL(page.url()).origin },
    });
  }
});
