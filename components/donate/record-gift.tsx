"use client";

import { useEffect } from "react";
import { endPaymentAttempt } from "./payment-attempt";
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
    // Paid: the next gift on this campaign is a new payment attempt, with a new idempotency key.
    endPaymentAttempt(campaignId);
  }, [campaignId, donationId, amountCents, currency, tickets]);
  return null;
}
