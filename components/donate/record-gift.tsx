"use client";

import { useEffect } from "react";
import { recordRecentGift, type RecentGift } from "./recent-gift";

/**
 * On the thank-you page of a completed gift: remembers it in this tab, so the donate page, if
 * the donor goes back to it, says they gave rather than invite the same gift again. Renders
 * nothing.
 */
export function RecordGift({ campaignId, gift }: { campaignId: string; gift: Omit<RecentGift, "at"> }) {
  const { donationId, amountCents, currency, tickets } = gift;
  useEffect(() => {
    recordRecentGift(campaignId, { donationId, amountCents, currency, tickets });
  }, [campaignId, donationId, amountCents, currency, tickets]);
  return null;
}
