import { afterEach, describe, expect, it, vi } from "vitest";
import { RECENT_GIFT_MS, forgetRecentGift, readRecentGift, recordRecentGift, sinceText } from "@/components/donate/recent-gift";
import { pageCacheHeaders } from "@/lib/security/headers";

describe("pageCacheHeaders", () => {
  it("is revalidated every time but not no-store on the donate pages, their payment page, the embed and their thank-you pages (back/forward cache)", () => {
    for (const path of [
      "/o/demo/donate/winter-meals",
      "/o/demo/donate/winter-meals/",
      "/o/demo/donate/winter-meals/thank-you",
      "/o/demo/donate/winter-meals/pay",
      "/o/demo/donate/winter-meals/embed",
      "/o/demo/donate/winter-meals/embed/thank-you",
    ]) {
      expect(pageCacheHeaders(path), path).toEqual({ "Cache-Control": "private, no-cache" });
    }
  });

  it("is no-store on the donor account pages", () => {
    for (const path of ["/o/demo/account", "/o/demo/account/", "/o/demo/account/sign-in"]) {
      expect(pageCacheHeaders(path), path).toEqual({ "Cache-Control": "no-store" });
    }
  });

  it("leaves other pages to Next.js", () => {
    for (const path of [
      "/",
      "/signin",
      "/dashboard/demo",
      "/o/demo/donate/winter-meals/other",
      "/o/demo/donate/winter-meals/embed/pay",
      "/o/demo/donate",
    ]) {
      expect(pageCacheHeaders(path), path).toEqual({});
    }
  });
});

/** A Map-backed sessionStorage on a stand-in window, as a browser tab has. */
function fakeTab() {
  const items = new Map<string, string>();
  const sessionStorage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
  vi.stubGlobal("window", { sessionStorage });
  return items;
}

describe("the recent gift kept for the donate page", () => {
  afterEach(() => vi.unstubAllGlobals());
  const gift = { donationId: "don_1", amountCents: 5000, currency: "usd", tickets: null };

  it("is read back for its campaign until RECENT_GIFT_MS have passed", () => {
    fakeTab();
    recordRecentGift("cmp_a", gift, 1_000);
    expect(readRecentGift("cmp_a", 1_000 + 60_000)).toEqual({ ...gift, at: 1_000 });
    expect(readRecentGift("cmp_b", 1_000)).toBeNull();
    expect(readRecentGift("cmp_a", 1_000 + RECENT_GIFT_MS + 1)).toBeNull();
  });

  it("keeps the first time when the same thank-you page is shown again; a new gift replaces it", () => {
    fakeTab();
    recordRecentGift("cmp_a", gift, 1_000);
    recordRecentGift("cmp_a", gift, 50_000);
    expect(readRecentGift("cmp_a", 60_000)?.at).toBe(1_000);
    recordRecentGift("cmp_a", { ...gift, donationId: "don_2", amountCents: 2500 }, 70_000);
    expect(readRecentGift("cmp_a", 80_000)).toMatchObject({ donationId: "don_2", amountCents: 2500, at: 70_000 });
  });

  it("is forgotten on request, and ignores what it did not write", () => {
    const items = fakeTab();
    recordRecentGift("cmp_a", gift, 1_000);
    forgetRecentGift("cmp_a");
    expect(readRecentGift("cmp_a", 2_000)).toBeNull();
    items.set("goodfund:gift:cmp_a", "not json");
    expect(readRecentGift("cmp_a", 2_000)).toBeNull();
  });

  it("does nothing without storage (server, or storage disabled)", () => {
    expect(() => recordRecentGift("cmp_a", gift)).not.toThrow();
    expect(readRecentGift("cmp_a")).toBeNull();
  });

  it("says when, in words", () => {
    expect(sinceText(0, 30_000)).toBe("a moment ago");
    expect(sinceText(0, 5 * 60_000 + 10_000)).toBe("5 minutes ago");
  });
});
