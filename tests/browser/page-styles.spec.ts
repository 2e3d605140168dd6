import { DEMO, expect, expectEveryClassStyled, pageClasses, signedInTest, test } from "./support";

// Which stylesheets each page loads. The donor's pages (donate, thank-you, embed) are styled by
// their CSS modules and app/globals.css alone; every other page also needs the shared classes of
// app/ui.css, which its layout imports. Each page here must define every class its elements
// carry (the screenshot pages are checked the same way in screenshots.spec.ts, at both widths).
// The stylesheets a page loads do not depend on its width: desktop only.

/** Classes of app/ui.css that a donate page must not carry the rules of: the dashboard's and the shared components'. */
const SHARED_UI = ["button", "card", "table", "sidebar", "notice", "badge", "form-grid", "toast"];

test.describe("the donor's pages load no shared classes", () => {
  for (const [what, path] of [
    ["donate page", `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`],
    ["event page", `/o/${DEMO.orgSlug}/donate/${DEMO.event}`],
    ["embedded form", `/o/${DEMO.orgSlug}/donate/${DEMO.donation}/embed`],
  ] as const) {
    test(what, { tag: "@desktop-only" }, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("button", { name: "Continue to payment" })).toBeVisible();
      await expectEveryClassStyled(page, what);
      const { defined } = await pageClasses(page);
      expect(SHARED_UI.filter((c) => defined.includes(c))).toEqual([]);
    });
  }

  test("the payment step", { tag: "@desktop-only" }, async ({ page }) => {
    await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
    await page.getByRole("textbox", { name: "First name" }).fill("Ada");
    await page.getByRole("textbox", { name: "Last name" }).fill("Styles");
    await page.getByRole("textbox", { name: "Email" }).fill("ada.styles@example.org");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("textbox", { name: "Card number" })).toBeVisible();
    await expectEveryClassStyled(page, "payment step");
  });
});

test.describe("the other public pages style every class", () => {
  for (const [what, path, status] of [
    ["unknown address", "/no-such-page", 404],
    ["API reference", "/docs", 200],
    ["a guide", "/docs/guides/errors", 200],
    ["sandbox mailbox", "/sandbox/mailbox", 200],
    ["organization's page", `/o/${DEMO.orgSlug}`, 200],
    ["unknown campaign", `/o/${DEMO.orgSlug}/donate/no-such-campaign`, 404],
    ["donor account, signed out", `/o/${DEMO.orgSlug}/account`, 200],
  ] as const) {
    test(what, { tag: "@desktop-only" }, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(status);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectEveryClassStyled(page, what);
    });
  }
});

// The dashboard's pages the screenshots do not take (screenshots.spec.ts checks its own the same way).
signedInTest.describe("the dashboard's pages style every class", () => {
  const base = `/dashboard/${DEMO.orgSlug}`;
  for (const [what, path] of [
    ["recurring", `${base}/recurring`],
    ["new campaign", `${base}/campaigns/new`],
    ["members", `${base}/members`],
    ["imports", `${base}/imports`],
    ["webhooks", `${base}/webhooks`],
    ["audit log", `${base}/audit-log`],
    ["API access", `${base}/api-access`],
    ["security", "/dashboard/security"],
  ] as const) {
    signedInTest(what, { tag: "@desktop-only" }, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectEveryClassStyled(page, what);
    });
  }
});
