import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { DEMO, donorContext, expect, mailboxWithDonorLink, serverUrl, signInAsDemo, test } from "./support";

// Keeping a monthly donor: a donor chooses a one-time gift, accepts the form's monthly offer and
// pays; the sandbox makes the plan's card decline and bills a renewal, so the plan is past due on
// the staff dashboard and the donor gets an email; its link (from the sandbox mailbox) leads to
// their account page, where they replace the card; the next renewal then succeeds and the plan is
// active again.

type Plan = { id: string; status: string; subscriptionId: string | null; email: string | null; nextRetryAt: string | null };

/** The donor's plan, as staff see it through the API (the dashboard's session). */
async function planOf(request: APIRequestContext, email: string): Promise<Plan> {
  const res = await request.get(`/api/orgs/${DEMO.orgSlug}/recurring-plans?limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  const plan = ((await res.json()).data as Plan[]).find((p) => p.email === email);
  expect(plan, `a plan for ${email}`).toBeTruthy();
  return plan!;
}

/** A sandbox control, as staff: the subscription's card declines, or its next billing attempt runs. */
async function sandbox(request: APIRequestContext, subscriptionId: string, action: "fail-next-renewal" | "renew") {
  const res = await request.post(`/api/sandbox/subscriptions/${encodeURIComponent(subscriptionId)}/${action}`, {
    headers: { Origin: serverUrl() },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json() as Promise<{ outcome?: string }>;
}

/** The sandbox card form: number, a future expiry, a CVC. */
async function fillCard(scope: Page | Locator, cardNumber: string) {
  await scope.getByRole("textbox", { name: "Card number" }).fill(cardNumber);
  await scope.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
  await scope.getByRole("textbox", { name: "Security code" }).fill("123");
}

test.describe("recurring revenue: monthly upsell, failed renewal, recovery", () => {
  test.describe.configure({ timeout: 240_000 });

  test("one-time → monthly offer accepted → paid; a declined renewal makes it past due; the email's link replaces the card; the plan recovers", async ({
    page,
    browser,
  }, info) => {
    const run = `${Date.now().toString(36)}-${info.project.name}`;
    const donor = { firstName: "Mae", lastName: "Jemison", email: `mae.${run}@example.org` };
    // A campaign of its own, with the monthly offer on (the default; the demo's appeal turns it off).
    await signInAsDemo(page);
    const created = await page.request.post(`/api/orgs/${DEMO.orgSlug}/campaigns`, {
      data: { title: `Monthly Friends ${run}`, status: "ACTIVE", suggestedAmounts: [2500, 5000, 10000] },
      headers: { Origin: serverUrl() },
    });
    expect(created.status(), await created.text()).toBe(201);
    const campaign = (await created.json()) as { slug: string; monthlyUpsell: boolean; allowRecurring: boolean };
    expect(campaign).toMatchObject({ monthlyUpsell: true, allowRecurring: true });

    const context = await donorContext(browser, info, { viewport: page.viewportSize() ?? undefined });
    const donorPage = await context.newPage();

    await test.step("the donor chooses a one-time gift, accepts the monthly offer and pays", async () => {
      await donorPage.goto(`/o/${DEMO.orgSlug}/donate/${campaign.slug}`);
      await donorPage.getByRole("radio", { name: "One-time", exact: true }).check();
      await donorPage.getByRole("radio", { name: "$50", exact: true }).check();
      await donorPage.getByRole("textbox", { name: "First name" }).fill(donor.firstName);
      await donorPage.getByRole("textbox", { name: "Last name" }).fill(donor.lastName);
      await donorPage.getByRole("textbox", { name: "Email" }).fill(donor.email);
      await donorPage.getByRole("button", { name: "Continue to payment" }).click();
      await expect(donorPage.getByRole("heading", { name: "Would you make it monthly?" })).toBeVisible();
      // Enter in a field while the offer shows does not take it (a monthly gift): the form asks again.
      const donatePath = `/o/${DEMO.orgSlug}/donate/${campaign.slug}`;
      const asked = donorPage.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === donatePath);
      await donorPage.getByRole("textbox", { name: "Email" }).press("Enter");
      expect((await asked).status()).toBe(200);
      await expect(donorPage.getByRole("heading", { name: "Would you make it monthly?" })).toBeVisible();
      expect(new URL(donorPage.url()).pathname).toBe(donatePath);
      await donorPage.getByRole("button", { name: /^Yes, give \$25(\.00)? monthly$/ }).click();
      await expect(donorPage.getByRole("heading", { name: "Payment" })).toBeFocused();
      await fillCard(donorPage, "4242424242424242");
      await donorPage.getByRole("button", { name: /^Pay / }).click();
      await donorPage.waitForURL(/\/thank-you\?donation=/);
      await expect(donorPage.getByRole("heading", { level: 1 })).toHaveText("Thank you, Mae!", { timeout: 20_000 });
    });

    let plan = await planOf(page.request, donor.email);
    expect(plan.status).toBe("ACTIVE");
    expect(plan.subscriptionId).toBeTruthy();
    const subscriptionId = plan.subscriptionId!;

    await test.step("the gift records the accepted offer", async () => {
      const res = await page.request.get(`/api/orgs/${DEMO.orgSlug}/donations?q=${encodeURIComponent(donor.email)}`);
      expect(res.status()).toBe(200);
      const [gift] = (await res.json()).data as { upsell: string | null; recurringInterval: string | null; status: string }[];
      expect(gift).toMatchObject({ upsell: "ACCEPTED", recurringInterval: "MONTH", status: "SUCCEEDED" });
    });

    await test.step("a renewal the card declines: the plan is past due on the dashboard, with its next retry", async () => {
      await sandbox(page.request, subscriptionId, "fail-next-renewal");
      expect((await sandbox(page.request, subscriptionId, "renew")).outcome).toBe("failed");
      plan = await planOf(page.request, donor.email);
      expect(plan.status).toBe("PAST_DUE");
      expect(plan.nextRetryAt).toBeTruthy();
      await page.goto(`/dashboard/${DEMO.orgSlug}/recurring?status=PAST_DUE`);
      const row = page.getByRole("row").filter({ hasText: donor.email });
      await expect(row).toContainText("Past due");
      await expect(row).toContainText("Next retry");
    });

    await test.step("the email's link leads the donor to their account page, where they sign in", async () => {
      const link = donorPage
        .getByRole("listitem")
        .filter({ hasText: donor.email })
        .getByRole("link", { name: `Open the account link in the email to ${donor.email}` });
      await expect(async () => {
        await donorPage.goto("/sandbox/mailbox");
        await expect(link).toHaveCount(1, { timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      const width = await donorPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(width, "the mailbox never scrolls sideways").toBeLessThanOrEqual(0);
      await link.click();
      await donorPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
      await donorPage.getByRole("textbox", { name: "Email address" }).fill(donor.email);
      await donorPage.getByRole("textbox", { name: "Email address" }).press("Enter");
      await expect(donorPage.getByRole("status")).toContainText("works once, within 15 minutes");
      await (await mailboxWithDonorLink(donorPage, donor.email)).click();
      await donorPage.getByRole("button", { name: "Continue to your account" }).click();
      await donorPage.waitForURL((u) => u.pathname === `/o/${DEMO.orgSlug}/account`);
    });

    const plans = donorPage.getByRole("region", { name: "Recurring gifts" });
    const item = plans.getByRole("listitem").filter({ hasText: /a month/ });
    await test.step("the account page says the payment is overdue; the donor replaces the card", async () => {
      await expect(item).toHaveCount(1);
      await expect(item).toContainText("Payment overdue");
      await item.getByRole("button", { name: "Replace card" }).click();
      const form = item.getByRole("region", { name: "Replace your card" });
      await fillCard(form, "4242424242424242");
      await form.getByRole("button", { name: "Save card" }).click();
      await expect(item.getByRole("status")).toHaveText("Your new card is saved. The next charges of this gift will use it.");
    });

    await test.step("the next attempt succeeds: the plan is active again, for staff and for the donor", async () => {
      expect((await sandbox(page.request, subscriptionId, "renew")).outcome).toBe("paid");
      expect((await planOf(page.request, donor.email)).status).toBe("ACTIVE");
      await page.goto(`/dashboard/${DEMO.orgSlug}/recurring?status=ACTIVE`);
      await expect(page.getByRole("row").filter({ hasText: donor.email })).toContainText("Active");
      await donorPage.reload();
      await expect(item).toContainText("Active");
      await expect(item).not.toContainText("Payment overdue");
    });
    await context.close();
  });
});
