/** Card processing estimate used for "cover the fees": 2.9 % + 30¢ (Stripe's standard US rate). */
const PCT_BPS = 290;
const FIXED_CENTS = 30;

/**
 * The fee to add so that, after the processor takes its share of the whole charge, the
 * organization receives `giftCents`: the smallest f with (gift + f) − fee(gift + f) ≥ gift.
 * Integer arithmetic only.
 */
export function coverFeeCents(giftCents: number): number {
  // gross = ceil((gift + fixed) / (1 − pct)), computed in basis points.
  const gross = Math.ceil(((giftCents + FIXED_CENTS) * 10_000) / (10_000 - PCT_BPS));
  return gross - giftCents;
}

/** The platform's cut of a charge, rounded down (in the organization's favour). */
export function platformFeeCents(chargeCents: number, feeBps: number): number {
  return Math.floor((chargeCents * feeBps) / 10_000);
}

/** Matching for one gift: ratio % of it, capped by what is left of the campaign's matching budget. */
export function matchFor(amountCents: number, ratioPct: number, maxCents: number | null, alreadyMatchedCents: number): number {
  const wanted = Math.floor((amountCents * ratioPct) / 100);
  if (maxCents === null) return wanted;
  return Math.max(0, Math.min(wanted, maxCents - alreadyMatchedCents));
}
