import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousViolations, giveThroughApi, publicCampaign, signedInTest } from "./support";

// A donor's personal data on the dashboard: an admin downloads the donor's JSON export, then
// erases the donor through the confirmation dialog (keyboard: Escape closes it, focus returns);
// afterwards the donor reads "Erased donor" and their name is in no list. Axe-clean with the
// dialog open, no sideways scrolling on a phone.

async function apiFromPage(page: Page, path: string): Promise<any> {
  return page.evaluate(async (path) => (await fetch(path)).json(), path);
}

signedInTest(
  "donor page: export the donor's data as JSON, erase them after the dialog; they are gone from the lists",
  async ({ page, request }) => {
    // The dashboard, a download and the erasure, on a server shared with the demo seed's history.
    signedInTest.setTimeout(120_000);
    const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const gift = { amount: 3100, email: `erase-me-${tag}@example.org`, firstName: `Ottilie${tag}`, lastName: `Brightwater${tag}` };
    const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
    await giveThroughApi(request, campaign.id, gift);

    await page.goto(`/dashboard/${DEMO.orgSlug}/donors`);
    const found = await apiFromPage(page, `/api/orgs/${DEMO.orgSlug}/donors?q=${encodeURIComponent(gift.email)}`);
    expect(found.data).toHaveLength(1);
    const donorId = found.data[0].id as string;

    await page.goto(`/dashboard/${DEMO.orgSlug}/donors/${donorId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${gift.firstName} ${gift.lastName}`);

    // The JSON export downloads as a file holding the donor and their gift.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export data (JSON)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^donor-${donorId}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
    expect(exported.donor).toMatchObject({ id: donorId, email: gift.email, firstName: gift.firstName });
    expect(exported.donations).toEqual([expect.objectContaining({ amount: 3100, status: "SUCCEEDED" })]);

    // The dialog from the keyboard: it opens with focus inside, Escape closes it and nothing changes.
    const opener = page.getByRole("button", { name: "Erase donor…" });
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: `Erase ${gift.firstName} ${gift.lastName}?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("What stays: the money records");
    await expect(dialog.getByRole("button", { name: "Keep donor" })).toBeFocused();
    await expectNoSeriousViolations(page, "donor page");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${gift.firstName} ${gift.lastName}`);

    await opener.click();
    await dialog.getByRole("button", { name: "Erase donor", exact: true }).click();
    // The erasure and the page's refresh: slow on a busy embedded server, so more than the default wait.
    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Erased donor", { timeout: 30_000 });
    await expect(page.getByText("Personal data erased on")).toBeVisible();
    await expect(page.getByRole("button", { name: "Erase donor…" })).toHaveCount(0);
    // The money record stays: the gift is still in the donor's history.
    await expect(page.getByRole("region", { name: "Donation history" }).first()).toContainText("$31");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The refresh streams the page's title after its content: the page is settled once it names the erasure.
    await expect(page).toHaveTitle(/^Erased donor/);
    await expectNoSeriousViolations(page, "donor page");

    for (const path of [`/dashboard/${DEMO.orgSlug}/donors?q=${tag}`, `/dashboard/${DEMO.orgSlug}/donations`]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const text = await page.locator("main").innerText();
      expect(text).not.toContain(gift.firstName);
      expect(text).not.toContain(gift.email);
    }
    await page.goto(`/dashboard/${DEMO.orgSlug}/donations`);
    await expect(page.locator("main")).toContainText("Erased donor");
  },
);
