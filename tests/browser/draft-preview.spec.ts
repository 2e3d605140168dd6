import { randomBytes } from "node:crypto";
import { DEMO, donorContext, expect, signInAsDemo, signInByEmail, test } from "./support";

// A draft's donate URL is its preview: the organization's members see the page as donors will,
// with a notice in place of the form; anyone else gets a 404 until it is published.
const DRAFT = "spring-garden";
const draftUrl = `/o/${DEMO.orgSlug}/donate/${DRAFT}`;

test.describe("a draft campaign's donate page", () => {
  test("its organization's members see a preview from the dashboard's Preview link", async ({ page }) => {
    await signInAsDemo(page);
    await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns`);
    const row = page.getByRole("row").filter({ hasText: "Spring Garden Project" });
    const preview = row.getByRole("link", { name: /^Preview/ });
    await expect(preview).toHaveAttribute("href", new RegExp(`${draftUrl}$`));

    const res = await page.goto(draftUrl);
    expect(res!.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Spring Garden Project");
    await expect(page.getByRole("heading", { name: "Preview: not published yet" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Donate/ })).toHaveCount(0);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  });

  test("a visitor, and a signed-in person of another organization, get a 404", async ({ browser }, info) => {
    const visitor = await donorContext(browser, info, {});
    const res = await (await visitor.newPage()).goto(draftUrl);
    expect(res!.status()).toBe(404);
    await visitor.close();

    const stranger = await donorContext(browser, info, {});
    const page = await stranger.newPage();
    await signInByEmail(page, `stranger-${randomBytes(4).toString("hex")}@example.org`);
    await page.waitForURL(/\/dashboard/);
    expect((await page.goto(draftUrl))!.status()).toBe(404);
    await stranger.close();
  });
});
