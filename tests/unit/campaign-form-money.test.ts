/**
 * The campaign editor's money fields in the organization's currency: typed amounts become minor
 * units by that currency's decimals, a zero-decimal currency refuses decimals, and the new
 * campaign's suggested amounts are written in the currency (¥2,500, not ¥25).
 */
import { describe, expect, it } from "vitest";
import { buildPayload, defaultValues, toApiValue, valuesFromCampaign } from "@/components/dashboard/campaign-form-model";
import type { CampaignView } from "@/lib/schemas/campaigns";

describe("campaign editor money in the organization's currency", () => {
  it("toApiValue reads amounts by the currency's decimals", () => {
    expect(toApiValue("goalAmountCents", "5000", "create", "usd")).toEqual({ ok: true, value: 500000 });
    expect(toApiValue("goalAmountCents", "5000", "create", "jpy")).toEqual({ ok: true, value: 5000 });
    expect(toApiValue("minAmountCents", "1.500", "create", "bhd")).toEqual({ ok: true, value: 1500 });
    expect(toApiValue("ticketPriceCents", "2500.5", "create", "jpy")).toEqual({
      ok: false,
      errors: { ticketPriceCents: "This currency has no decimals: enter a whole amount" },
    });
    expect(toApiValue("suggestedAmounts", ["1000", "¥5,000", "7.5"], "create", "jpy")).toEqual({
      ok: false,
      errors: { "suggestedAmounts.2": "This currency has no decimals: enter a whole amount" },
    });
    expect(toApiValue("suggestedAmounts", ["1000", "¥5,000"], "create", "jpy")).toEqual({ ok: true, value: [1000, 5000] });
  });

  it("a new campaign suggests the API's default amounts, written in the currency", () => {
    expect(defaultValues("usd").suggestedAmounts).toEqual(["25", "50", "100"]);
    expect(defaultValues("jpy").suggestedAmounts).toEqual(["2500", "5000", "10000"]);
    expect(buildPayload(["suggestedAmounts"], defaultValues("jpy"), "create", "jpy", "UTC")).toEqual({
      suggestedAmounts: [2500, 5000, 10000],
    });
  });

  it("an existing campaign's amounts are shown without decimals in yen and round-trip unchanged", () => {
    const c = {
      title: "Sakura",
      slug: "sakura",
      description: null,
      type: "DONATION",
      parentCampaignId: null,
      goalAmountCents: 1_000_000,
      coverImageUrl: null,
      videoUrl: null,
      color: null,
      matchingOrgName: null,
      matchingMaxCents: null,
      minAmountCents: 500,
      ticketPriceCents: null,
      matchingRatioPct: 100,
      ticketCapacity: null,
      maxTicketsPerOrder: 10,
      showDonorRoll: true,
      showGoal: true,
      allowCustomAmount: true,
      allowRecurring: true,
      matchingEnabled: false,
      suggestedAmounts: [1000, 5000],
    } as unknown as CampaignView;
    const v = valuesFromCampaign(c, "jpy", "UTC");
    expect([v.goalAmountCents, v.minAmountCents, v.suggestedAmounts]).toEqual(["1000000", "500", ["1000", "5000"]]);
    expect(buildPayload(["goalAmountCents", "minAmountCents", "suggestedAmounts"], v, "edit", "jpy", "UTC")).toEqual({
      goalAmountCents: 1_000_000,
      minAmountCents: 500,
      suggestedAmounts: [1000, 5000],
    });
    expect(valuesFromCampaign(c, "usd", "UTC").goalAmountCents).toBe("10000");
  });

  it("dates are typed in the organization's time zone, whatever the browser's", () => {
    const c = {
      startDate: "2031-12-06T00:30:00.000Z",
      endDate: null,
      scheduledPublishAt: null,
      suggestedAmounts: [],
    } as unknown as CampaignView;
    expect(valuesFromCampaign(c, "usd", "America/New_York").startDate).toBe("2031-12-05T19:30");
    expect(valuesFromCampaign(c, "usd", "Asia/Tokyo").startDate).toBe("2031-12-06T09:30");
    expect(toApiValue("startDate", "2031-12-05T19:30", "edit", "usd", "America/New_York")).toEqual({
      ok: true,
      value: "2031-12-06T00:30:00.000Z",
    });
    expect(toApiValue("startDate", "2031-07-05T19:30", "edit", "usd", "America/New_York")).toEqual({
      ok: true,
      value: "2031-07-05T23:30:00.000Z",
    });
    expect(toApiValue("startDate", "", "edit", "usd", "America/New_York")).toEqual({ ok: true, value: null });
    expect(toApiValue("startDate", "soon", "edit", "usd", "America/New_York")).toMatchObject({ ok: false });
  });
});
