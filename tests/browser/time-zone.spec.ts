import { randomBytes } from "node:crypto";
import { expect, serverUrl, signInAsDemo, test } from "./support";

// An organization in New York, viewed from a browser in Tokyo: its gala's start is shown in New
// York's time on the donate page (with its venue) and typed in New York's time in the campaign
// editor, whatever the reader's own zone.

test.use({ timezoneId: "Asia/Tokyo" });

test("an event of an organization in America/New_York shows and edits its local time, from a browser in Tokyo", async ({ page }) => {
  await signInAsDemo(page);
  const origin = { Origin: serverUrl() };
  const slug = `nyc-${randomBytes(4).toString("hex")}`;
  const created = await page.request.post("/api/orgs", {
    data: { name: "Hudson Gala Trust", slug, timeZone: "America/New_York" },
    headers: origin,
  });
  expect(created.status(), await created.text()).toBe(201);
  expect((await created.json()).timeZone).toBe("America/New_York");
  const onboarding = await page.request.post(`/api/orgs/${slug}/processor/onboarding`, { headers: origin });
  expect(onboarding.status(), await onboarding.text()).toBe(200);
  const account = (await onboarding.json()).processorAccountId as string;
  expect((await page.request.post(`/api/sandbox/accounts/${account}/complete`, { headers: origin })).status()).toBeLessThan(300);
  // 00:30 UTC on 6 December 2031 is 7:30 PM on 5 December in New York (and 9:30 AM on the 6th in Tokyo).
  const gala = await page.request.post(`/api/orgs/${slug}/campaigns`, {
    data: {
      title: "Winter Gala",
      type: "EVENT",
      status: "ACTIVE",
      ticketPriceCents: 7500,
      ticketCapacity: 120,
      startDate: "2031-12-06T00:30:00.000Z",
      venue: "Grand Hall, 12 Harbour St, New York",
    },
    headers: origin,
  });
  expect(gala.status(), await gala.text()).toBe(201);
  const campaign = (await gala.json()) as { id: string; slug: string };

  await page.goto(`/o/${slug}/donate/${campaign.slug}`);
  const when = page.locator(`time[datetime="2031-12-06T00:30:00.000Z"]`).first();
  await expect(when).toContainText("December 5, 2031");
  await expect(when).toContainText("7:30");
  await expect(when).toContainText("EST");
  await expect(page.getByText("Grand Hall, 12 Harbour St, New York")).toBeVisible();

  await page.goto(`/dashboard/${slug}/campaigns/${campaign.id}`);
  const starts = page.getByLabel("Starts");
  await expect(starts).toHaveValue("2031-12-05T19:30");
  await expect(page.getByLabel("Venue")).toHaveValue("Grand Hall, 12 Harbour St, New York");
  await expect(page.getByText("In the organization's time zone (America/New York)")).toBeVisible();
  // Typed in New York's time: 8:00 PM there is 01:00 UTC the next day.
  await starts.fill("2031-12-05T20:00");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect
    .poll(async () => ((await (await page.request.get(`/api/campaigns/${campaign.id}`)).json()) as { startDate: string }).startDate)
    .toBe("2031-12-06T01:00:00.000Z");
});
