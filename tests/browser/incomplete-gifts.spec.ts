import { DEMO, expect, publicCampaign, signedInTest, test } from "./support";

// Checkouts started and never paid: hidden from the dashboard's donations list unless asked for,
// and a thank-you page that keeps checking only while a payment is genuinely on its way.

const unique = () => `unpaid-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;

signedInTest("the donations list hides a started but unpaid gift until 'Include incomplete' is checked", async ({ page, request }) => {
  const email = unique();
  const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
  const created = await request.post("/api/donations", {
    data: { campaignId: campaign.id, amount: 1700, email, firstName: "Walk", lastName: "Away" },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto(`/dashboard/${DEMO.orgSlug}/donations`);
  await expect(page.getByRole("heading", { level: 1, name: "Donations" })).toBeVisible();
  await expect(page.getByText("Incomplete checkouts are hidden.")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(0);
  const list = page.getByRole("region", { name: "Donations", exact: true });

  const include = page.getByRole("checkbox", { name: "Include incomplete" });
  await expect(include).not.toBeChecked();
  await include.check();
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]incomplete=1(&|$)/);
  const row = list.getByRole("row").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Pending");
  await expect(page.getByRole("checkbox", { name: "Include incomplete" })).toBeChecked();

  // The overview counts what the list shows by default: completed gifts.
  await page.goto(`/dashboard/${DEMO.orgSlug}`);
  await expect(page.getByRole("link", { name: /^Completed gifts/ })).toBeVisible();
});

test("the thank-you page of a payment still on its way keeps checking", async ({ page, request }) => {
  const campaign = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
  const created = await request.post("/api/donations", {
    data: { campaignId: campaign.id, amount: 1700, email: unique(), firstName: "Soon" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json();
  await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}/thank-you?donation=${encodeURIComponent(id)}`);
  await expect(page.getByRole("heading", { name: /Almost there/ })).toBeVisible();
  await expect(page.getByText("Checking again in a moment…")).toBeVisible();
  await expect(page.getByText("This donation was not completed")).toHaveCount(0);
});
