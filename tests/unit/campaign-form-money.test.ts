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
    expect(buildPayload(["suggestedAmounts"], defaultValues("jpy"), "create", "jpy")).toEqual({ suggestedAmounts: [2500, 5000, 10000] });
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
    const v = valuesFromCampaign(c, "jpy");
    expect([v.goalAmountCents, v.minAmountCents, v.suggestedAmounts]).toEqual(["1000000", "500", ["1000", "5000"]]);
    expect(buildPayload(["goalAmountCents", "minAmountCents", "suggestedAmounts"], v, "edit", "jpy")).toEqual({
      goalAmountCents: 1_000_000,
      minAmountCents: 500,
      suggestedAmounts: [1000, 5000],
    });
    expect(valuesFromCampaign(c, "usd").goalAmountCents).toBe("10000");
  });
});
