import type { Campaign } from "@/db/schema";
import { formatMoney } from "./money";

export const TYPE_LABEL: Record<string, string> = {
  DONATION: "Donation",
  PEER_TO_PEER: "Peer-to-peer",
  EVENT: "Event",
  MEMBERSHIP: "Membership",
};

/** What the progress bar shows: raised against the goal (null percent when there is none). */
export function progressOf(c: Pick<Campaign, "raisedAmountCents" | "goalAmountCents">, currency: string) {
  return {
    raisedLabel: formatMoney(c.raisedAmountCents, currency),
    goalLabel: c.goalAmountCents ? formatMoney(c.goalAmountCents, currency) : null,
    percent: c.goalAmountCents ? (c.raisedAmountCents / c.goalAmountCents) * 100 : null,
  };
}

/** The iframe that puts a campaign's donate page on another site. */
export function embedSnippet(donateUrl: string, title: string): string {
  const safeTitle = title.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<iframe src="${donateUrl}" title="Donate: ${safeTitle}" width="100%" height="760" style="border:0;max-width:520px" loading="lazy" allow="payment"></iframe>`;
}
