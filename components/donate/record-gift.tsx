"use client";

import { useEffect } from "react";
import { endPaymentAttempt } from "./payment-attempt";
import { recordRecentGift, type RecentGift } from "./recent-gift";

const STRIPE_SECRET_PARAM = "payment_intent_client_secret";

/**
 * The payment's client secret has no place in the thank-you page's address (its history entry, a
 * copied link): Stripe's return adds it as `payment_intent_client_secret`, and the payment page's
 * fragment (`#{clientSecret}`) rides along when a paid gift's payment page sends the donor here.
 * The address keeps everything else (the page reads `redirect_status`).
 */
function dropPaymentSecret() {
  const url = new URL(window.location.href);
  if (url.hash === "" && !url.searchParams.has(STRIPE_SECRET_PARAM)) return;
  url.searchParams.delete(STRIPE_SECRET_PARAM);
  window.history.replaceState(window.history.state, "", url.pathname + url.search);
}

/**
 * On the thank-you page of a completed gift: remembers it in this tab, so the donate page, if
 * the donor goes back to it, says they gave rather than invite the same gift again, and takes the
 * payment's secret out of the address. Renders nothing.
 */
export function RecordGift({ campaignId, gift }: { campaignId: string; gift: Omit<RecentGift, "at"> }) {
  const { donationId, amountCents, currency, tickets } = gift;
  useEffect(() => {
    recordRecentGift(campaignId, { donationId, amountCents, currency, tickets });
    // Paid: the next gift on this campaign is a new payment attempt, with a new idempotency key.
    endPaymentAttempt(campaignId);
    dropPaymentSecret();
  }, [campaignId, donationId, amountCents, currency, tickets]);
  return null;
}
