import { formatMoney } from "@/lib/money";

export const TYPE_LABEL: Record<string, string> = {
  DONATION: "Donation",
  PEER_TO_PEER: "Peer-to-peer",
  EVENT: "Event",
  MEMBERSHIP: "Membership",
};

/** What the progress bar shows: raised against the goal (null percent when there is none). */
export function progressOf(c: { raisedAmountCents: number; goalAmountCents: number | null }, currency: string) {
  return {
    raisedLabel: formatMoney(c.raisedAmountCents, currency, { short: true }),
    goalLabel: c.goalAmountCents ? formatMoney(c.goalAmountCents, currency, { short: true }) : null,
    percent: c.goalAmountCents ? (c.raisedAmountCents / c.goalAmountCents) * 100 : null,
  };
}

/**
 * The HTML that puts a campaign's donate form on another site: a link that `/embed.js` turns into
 * a button opening the form in an overlay, or (`inline`) into the form itself. Without the
 * script (or JavaScript) the link still leads to the donate page.
 */
export function embedSnippet(donateUrl: string, title: string, appUrl: string, mode: "button" | "inline"): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const attr = mode === "inline" ? ' data-goodfund="inline"' : " data-goodfund";
  const text = mode === "inline" ? `Donate to ${esc(title)}` : "Donate";
  return `<a href="${esc(donateUrl)}"${attr}>${text}</a>\n<script src="${esc(appUrl)}/embed.js" async></script>`;
}
