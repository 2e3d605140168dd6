import { DEMO, expect, giveThroughApi, publicCampaign, serverUrl, signedInTest, test } from "./support";

// What a newcomer trips over first: the icon, unknown addresses, and the dashboard's lists on a phone.

test("the favicon and app icons are served", async ({ request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  const bytes = await ico.body();
  // An ICO file: reserved 0, type 1, at least one image.
  expect(bytes.readUInt16LE(0)).toBe(0);
  expect(bytes.readUInt16LE(2)).toBe(1);
  expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
});

test("a page links its icon, and the linked icon is served", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^image\//);
});

test("an unknown address answers 404 with a branded page", async ({ page }) => {
  const res = await page.goto("/no-such-page-here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "We can't find that page" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the home page" })).toBeVisible();
});

signedInTest.describe("dashboard lists on a phone", () => {
  signedInTest.beforeAll(async ({ playwright }) => {
    const request = await playwright.request.newContext({ baseURL: serverUrl() });
    const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
    await giveThroughApi(request, campaign.id, { amount: 4200, email: "phone-card@example.org", firstName: "Pho", lastName: "Ne" });
    await request.dispose();
  });

  const lists = [
    { path: "donations", label: "Donations", row: "phone-card@example.org", lead: /\$42/, status: "Succeeded" },
    // The demo's many donors sort by total given: find this one by search.
    { path: "donors?q=phone-card", label: "Donors", row: "phone-card@example.org", lead: /\$\d/, status: /gift/ },
    { path: "campaigns", label: "Campaigns", row: "Winter Meals Appeal", lead: /raised|of/, status: "Active" },
  ];

  for (const list of lists) {
    signedInTest(`${list.path}: amount and status are visible without scrolling sideways`, async ({ page }, info) => {
      await page.goto(`/dashboard/${DEMO.orgSlug}/${list.path}`);
      const region = page.getByRole("region", { name: list.label, exact: true });
      await expect(region).toBeVisible();
      // Nothing inside the list is wider than the list itself, at any width.
      const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow, `${list.path}: sideways overflow in px`).toBeLessThanOrEqual(0);
      const row = region.getByRole("row").filter({ hasText: list.row }).first();
      await expect(row.locator(".card-lead")).toContainText(list.lead);
      await expect(row.locator(".card-status")).toContainText(list.status);
      for (const cell of [row.locator(".card-lead"), row.locator(".card-status")]) {
        const box = await cell.boundingBox();
        expect(box, `${list.path}: a lead cell is laid out`).not.toBeNull();
        expect(box!.x + box!.width, `${list.path}: in view without scrolling`).toBeLessThanOrEqual(page.viewportSize()!.width);
      }
      if (info.project.name === "phone") {
        // A card: the amount and the status come first, on the card's first line.
        const [lead, status, first] = await Promise.all([
          row.locator(".card-lead").boundingBox(),
          row.locator(".card-status").boundingBox(),
          row.locator("td").first().boundingBox(),
        ]);
        expect(lead!.y).toBeLessThanOrEqual(first!.y + 1);
        expect(Math.abs(lead!.y + lead!.height / 2 - (status!.y + status!.height / 2))).toBeLessThan(lead!.height);
      }
    });
  }
});

signedInTest("unknown records inside the dashboard answer 404 with the dashboard's not-found page", async ({ page }) => {
  const base = `/dashboard/${DEMO.orgSlug}`;
  for (const path of ["campaigns/cmp_missing", "donations/don_missing", "donors/dnr_missing", "emails/999999999", "webhooks/whe_missing"]) {
    const res = await page.goto(`${base}/${path}`);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  }
  // A record that exists still opens.
  const res = await page.goto(`${base}/campaigns`);
  expect(res?.status()).toBe(200);
  await page.getByRole("link", { name: "Winter Meals Appeal", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Winter Meals Appeal");
});

test(
  "a sign-in link kept by the sandbox mailbox: the page says where it is, and a used link says Used",
  { tag: "@desktop-only" },
  async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("Email address").fill("newcomer-mailbox@example.org");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const status = page.getByRole("status").filter({ hasText: "Your sign-in link is ready" });
    await expect(status).toBeVisible();
    // No "we sent" next to "this install does not send email".
    await expect(page.getByText("We sent a sign-in link")).toHaveCount(0);
    await status.getByRole("link", { name: "sandbox mailbox" }).click();
    const item = page.getByRole("listitem").filter({ hasText: "newcomer-mailbox@example.org" }).first();
    await expect(item.getByText("Valid for an hour (once)")).toBeVisible();
    await item.getByRole("link", { name: /Sign in as newcomer-mailbox@example.org/ }).click();
    await page.waitForURL(/\/dashboard/);
    await page.goto("/sandbox/mailbox");
    const used = page.getByRole("listitem").filter({ hasText: "newcomer-mailbox@example.org" }).first();
    await expect(used.getByText("Used", { exact: true })).toBeVisible();
    await expect(used.getByRole("link", { name: /Sign in as/ })).toHaveCount(0);
  },
);

signedInTest(
  "a refund emails the donor a confirmation and a new member an invitation; the emails page lists both",
  { tag: "@desktop-only" },
  async ({ page, request, browser }) => {
    const stamp = Date.now().toString(36);
    const donor = `refunded-${stamp}@example.org`;
    const invitee = `invited-${stamp}@example.org`;
    const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
    const gift = await giveThroughApi(request, campaign.id, { amount: 3100, email: donor, firstName: "Rhea", lastName: "Fund" });
    expect(gift.status).toBe("SUCCEEDED");

    await page.goto(`/dashboard/${DEMO.orgSlug}/donations/${gift.id}`);
    await page.getByRole("button", { name: "Refund donation" }).click();
    await page
      .getByRole("group", { name: "Confirm the refund" })
      .getByRole("button", { name: /^Yes, refund/ })
      .click();
    await expect(page.getByRole("region", { name: "Details" })).toContainText(/Status\s*Refunded/i, { timeout: 20_000 });

    await page.goto(`/dashboard/${DEMO.orgSlug}/members`);
    await page.getByLabel("Email address").fill(invitee);
    await page.getByLabel("Role", { exact: true }).selectOption("ADMIN");
    await page.getByRole("button", { name: "Add member" }).click();
    await expect(page.getByLabel(`Role of ${invitee}`)).toHaveValue("ADMIN");

    await page.goto(`/dashboard/${DEMO.orgSlug}/emails`);
    const refundRow = page.getByRole("row").filter({ hasText: donor });
    await expect(refundRow).toHaveCount(2); // the receipt, then the refund confirmation
    const confirmation = refundRow.filter({ hasText: "Refund confirmation" });
    await expect(confirmation).toContainText(/\[Test mode\] Your refund of \$31(\.00)? from Riverside Food Bank is on its way/);
    const invitation = page.getByRole("row").filter({ hasText: invitee });
    await expect(invitation).toHaveCount(1);
    await expect(invitation).toContainText("Member invitation");
    await expect(invitation).toContainText(/\[Test mode\] .+ invited you to Riverside Food Bank on Goodfund/);

    // The invitation as the new member reads it, and its link: the sign-in page with their email filled in.
    await invitation.getByRole("link").first().click();
    const email = page.getByRole("region", { name: "As the recipient sees it" }).frameLocator("iframe").locator("body");
    await expect(email).toContainText("as an Admin");
    const href = await email.getByRole("link", { name: "Sign in to Riverside Food Bank" }).getAttribute("href");
    const link = new URL(href!);
    expect(link.pathname).toBe("/signin");
    expect(link.searchParams.get("email")).toBe(invitee);
    expect(link.searchParams.get("callbackUrl")).toBe(`/dashboard/${DEMO.orgSlug}`);
    // Signed out, as the new member arrives.
    const visitor = await browser.newContext({ baseURL: serverUrl(), storageState: { cookies: [], origins: [] } });
    const signIn = await visitor.newPage();
    await signIn.goto(`${link.pathname}${link.search}`);
    await expect(signIn.getByLabel("Email address")).toHaveValue(invitee);
    await visitor.close();
  },
);

/** The campaign's public total (what the donate page shows), from the page's own API. */
async function raisedCents(request: import("@playwright/test").APIRequestContext, slug: string): Promise<number> {
  const res = await request.get(`/api/public/orgs/${DEMO.orgSlug}/campaigns/${slug}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).progress.raisedAmountCents as number;
}

test("the donate and thank-you pages are never served stale from the HTTP cache, yet may enter the back/forward cache", async ({
  request,
}) => {
  for (const path of [`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`, `/o/${DEMO.orgSlug}/donate/${DEMO.donation}/thank-you?donation=none`]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    const directives = (res.headers()["cache-control"] ?? "").split(",").map((d) => d.trim().toLowerCase());
    // Checked with the server on every load, and kept by no shared cache...
    expect(directives, path).toContain("no-cache");
    expect(directives, path).toContain("private");
    // ...but not no-store, which keeps Chromium from restoring the page from its back/forward cache.
    expect(directives, path).not.toContain("no-store");
    expect(
      directives.some((d) => d.startsWith("max-age=") && d !== "max-age=0"),
      path,
    ).toBe(false);
  }
});

test("after a gift, Back shows the donate page with the new total and the gift just made", async ({ page, request }) => {
  const before = await raisedCents(request, DEMO.donation);
  await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
  // Nothing to say to someone who hasn't given in this tab.
  await expect(page.getByText(/You gave/)).toHaveCount(0);
  await page.getByRole("radio", { name: "$50", exact: true }).check();
  await page.getByRole("textbox", { name: "First name" }).fill("Bea");
  await page.getByRole("textbox", { name: "Last name" }).fill("Back");
  await page.getByRole("textbox", { name: "Email" }).fill(`bea.back.${Date.now().toString(36)}@example.org`);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("textbox", { name: "Card number" }).fill("4242 4242 4242 4242");
  await page.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
  await page.getByRole("textbox", { name: "Security code" }).fill("123");
  await page.getByRole("button", { name: /^Pay \$50(\.00)?$/ }).click();
  await page.waitForURL(/\/thank-you\?donation=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you, Bea!", { timeout: 20_000 });
  const after = await raisedCents(request, DEMO.donation);
  expect(after).toBe(before + 5000);

  await page.goBack();
  await page.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
  // The total as it is now, not as the page first showed it.
  const whole = (cents: number) => new RegExp(`^\\$${(cents / 100).toLocaleString("en-US")}(\\.00)?\\s*raised`);
  await expect(page.getByText(/raised of/).locator("..")).toHaveText(whole(after));
  await expect(page.getByText("Be the first to give")).toHaveCount(0);
  await expect(page.getByText(/^\d+ (people have|person has) given$/)).toBeVisible();
  const notice = page.getByRole("status").filter({ hasText: "You gave $50 a moment ago" });
  await expect(notice).toBeVisible();

  // "Give again" puts the notice away and takes the donor to the form.
  await notice.getByRole("button", { name: "Give again" }).click();
  await expect(page.getByText(/You gave/)).toHaveCount(0);
  await expect(page.getByRole("radio", { name: "$50", exact: true })).toBeFocused();
});
