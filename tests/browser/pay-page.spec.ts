import type { APIRequestContext } from "@playwright/test";
import { DEMO, demoCampaign, expect, giveThroughApi, test } from "./support";

// The payment page a started gift leads to, /o/{org}/donate/{slug}/pay?donation={id}#{clientSecret}:
// the donate form's step 2 on a page of its own. The client secret rides in the fragment, which
// the browser never sends to the server. What the address does (Back, the fragment, not found, paid)
// is checked once, at desktop width (@desktop-only); the payment itself at both widths.

const DONATE = `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`;
const PAY = `${DONATE}/pay`;
const unique = (what: string) => `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;

/** A gift started the way the donate form starts one (POST /api/donations), not paid yet. */
async function startGift(request: APIRequestContext, amount = 2500): Promise<{ id: string; clientSecret: string; title: string }> {
  const campaign = await demoCampaign(request);
  const created = await request.post("/api/donations", {
    data: { campaignId: campaign.id, amount, email: unique("pay"), firstName: "Ada", lastName: "Lovelace" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id, clientSecret } = await created.json();
  return { id, clientSecret, title: campaign.title };
}

test("the payment page shows the gift, takes the sandbox card and lands on the thank-you page", async ({ page }) => {
  const gift = await startGift(page.request);
  await page.goto(`${PAY}?donation=${gift.id}#${encodeURIComponent(gift.clientSecret)}`);
  await expect(page).toHaveTitle(`Payment · ${gift.title} · Riverside Food Bank`);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.getByText("Step 2 of 2")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeFocused();
  await expect(page.getByText(/^Your gift to Riverside Food Bank: \$25(\.00)?$/)).toBeVisible();
  // Opened without the donate page before it, "Change" is a plain link there.
  await expect(page.getByRole("link", { name: "Change your gift" })).toHaveAttribute("href", DONATE);

  await page.getByRole("textbox", { name: "Card number" }).fill("4242 4242 4242 4242");
  await page.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
  await page.getByRole("textbox", { name: "Security code" }).fill("123");
  await page.getByRole("button", { name: /^Pay \$25(\.00)?$/ }).click();
  await page.waitForURL(new RegExp(`/thank-you\\?donation=${gift.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you, Ada!");
});

test(
  "'Change' goes Back to the donate page the donor came from, and follows the link otherwise",
  { tag: "@desktop-only" },
  async ({ page }) => {
    const gift = await startGift(page.request);
    const pay = `${PAY}?donation=${gift.id}#${encodeURIComponent(gift.clientSecret)}`;
    // From the donate page, as its form's redirect brings the donor (the referrer is the form's page).
    await page.goto(DONATE);
    await page.evaluate((url) => window.location.assign(url), pay);
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeFocused();
    const entries = await page.evaluate(() => window.history.length);
    await page.getByRole("link", { name: "Change your gift" }).click();
    await page.waitForURL((url) => url.pathname === DONATE);
    expect(await page.evaluate(() => window.history.length), "Back, no new history entry").toBe(entries);

    // Straight to the payment page (a new tab, a bookmark): the link, a new entry.
    await page.goto(pay);
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeFocused();
    const before = await page.evaluate(() => window.history.length);
    await page.getByRole("link", { name: "Change your gift" }).click();
    await page.waitForURL((url) => url.pathname === DONATE);
    expect(await page.evaluate(() => window.history.length)).toBe(before + 1);
  },
);

test(
  "without the client secret in the fragment, the page says so and leads back to the donate page",
  { tag: "@desktop-only" },
  async ({ page }) => {
    const gift = await startGift(page.request);
    await page.goto(`${PAY}?donation=${gift.id}`);
    await expect(page.getByText("This payment link is incomplete, so the card form can't be shown.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeFocused();
    await expect(page.getByRole("textbox", { name: "Card number" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Start again" })).toHaveAttribute("href", DONATE);
  },
);

test(
  "an unknown donation, or none, is the payment page's not-found page: a 404, never indexed",
  { tag: "@desktop-only" },
  async ({ page }) => {
    for (const path of [`${PAY}?donation=no-such-donation#secret`, PAY]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "We couldn't find that donation" }), path).toBeVisible();
      await expect(page.getByRole("link", { name: "See the organization's campaigns" })).toHaveAttribute("href", `/o/${DEMO.orgSlug}`);
      await expect(page.locator('meta[name="robots"][content*="noindex"]').first()).toBeAttached();
      await expect(page.getByRole("textbox", { name: "Card number" })).toHaveCount(0);
    }
  },
);

test(
  "a paid donation's payment page sends the donor to its thank-you page, whose address keeps no payment secret",
  { tag: "@desktop-only" },
  async ({ page }) => {
    const campaign = await demoCampaign(page.request);
    const paid = await giveThroughApi(page.request, campaign.id, {
      amount: 3000,
      email: unique("paid"),
      firstName: "Grace",
      lastName: "Hopper",
    });
    expect(paid.status).toBe("SUCCEEDED");
    await page.goto(`${PAY}?donation=${paid.id}#${encodeURIComponent(paid.clientSecret)}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you, Grace!");
    // The browser carries the fragment, the client secret, through the redirect; the page takes it out of its address.
    await expect(page).toHaveURL(new RegExp(`/thank-you\\?donation=${paid.id}$`));
    // So does it with the secret Stripe's return adds to the query, and keeps the rest of the query.
    const thanks = new URL(page.url());
    await page.goto(
      `${thanks.pathname}?donation=${paid.id}&payment_intent=pi_returned&payment_intent_client_secret=${encodeURIComponent(paid.clientSecret)}&redirect_status=succeeded`,
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you, Grace!");
    await expect(page).toHaveURL(new RegExp(`/thank-you\\?donation=${paid.id}&payment_intent=pi_returned&redirect_status=succeeded$`));
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/thank-you\\?donation=${paid.id}$`));
  },
);
