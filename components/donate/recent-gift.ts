/**
 * The gift a donor just completed, kept in this tab's sessionStorage by campaign, so the donate
 * page can say "You gave $50 a moment ago" when they come back to it (with Back, or a link)
 * rather than look as if nothing happened. Nothing personal: the amount, the time, the ID.
 */
export type RecentGift = {
  donationId: string;
  amountCents: number;
  currency: string;
  /** Tickets bought, for an event (the amount is then the order's). */
  tickets: number | null;
  /** When the thank-you page first showed the gift (ms since the epoch). */
  at: number;
};

/** How long the donate page mentions the gift. */
export const RECENT_GIFT_MS = 30 * 60_000;

const key = (campaignId: string) => `goodfund:gift:${campaignId}`;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    // Storage disabled (privacy settings): the notice is a nicety, not a requirement.
    return null;
  }
}

/** Records a completed gift; a reload of the same thank-you page keeps its first time. */
export function recordRecentGift(campaignId: string, gift: Omit<RecentGift, "at">, now = Date.now()): void {
  const s = storage();
  if (!s) return;
  const previous = readRecentGift(campaignId, now);
  if (previous?.donationId === gift.donationId) return;
  try {
    s.setItem(key(campaignId), JSON.stringify({ ...gift, at: now }));
  } catch {
    // Quota or privacy mode: skip.
  }
}

/** The campaign's recent gift in this tab, if it is younger than RECENT_GIFT_MS. */
export function readRecentGift(campaignId: string, now = Date.now()): RecentGift | null {
  const raw = storage()?.getItem(key(campaignId));
  if (!raw) return null;
  try {
    const g = JSON.parse(raw) as Partial<RecentGift>;
    if (
      typeof g.at !== "number" ||
      typeof g.amountCents !== "number" ||
      typeof g.currency !== "string" ||
      typeof g.donationId !== "string"
    ) {
      return null;
    }
    if (now - g.at > RECENT_GIFT_MS || g.at > now + 60_000) return null;
    return { donationId: g.donationId, amountCents: g.amountCents, currency: g.currency, tickets: g.tickets ?? null, at: g.at };
  } catch {
    return null;
  }
}

export function forgetRecentGift(campaignId: string): void {
  try {
    storage()?.removeItem(key(campaignId));
  } catch {
    // Nothing to forget.
  }
}

/** Whole minutes since the gift (the donate page words them: "a moment ago", "5 minutes ago"). */
export function minutesSince(at: number, now = Date.now()): number {
  return Math.max(0, Math.floor((now - at) / 60_000));
}

/** "a moment ago", "5 minutes ago", in English. */
export function sinceText(at: number, now = Date.now()): string {
  const minutes = minutesSince(at, now);
  if (minutes < 2) return "a moment ago";
  return `${minutes} minutes ago`;
}
