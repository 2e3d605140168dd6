"use client";

import { useEffect, useState } from "react";
import { formatMoney } from "@/lib/money";
import { HeartIcon } from "./icons";
import { forgetRecentGift, readRecentGift, sinceText, type RecentGift } from "./recent-gift";
import styles from "./gift-notice.module.css";

/**
 * "You gave $50 a moment ago": the donor who comes back to the donate page after a completed
 * gift (Back from the thank-you page, a link) sees that it went through, so they don't give
 * twice by mistake; "Give again" puts the notice away and takes them to the form. Read from this
 * tab's sessionStorage after the page loads; for everyone else the live region stays empty and
 * takes no room.
 */
export function GiftNotice({ campaignId, formAreaId }: { campaignId: string; formAreaId: string }) {
  const [shown, setShown] = useState<{ gift: RecentGift; since: string } | null>(null);

  useEffect(() => {
    const read = () => {
      const gift = readRecentGift(campaignId);
      setShown(gift ? { gift, since: sinceText(gift.at) } : null);
    };
    read();
    // A page restored from the back-forward cache runs no effect: read again when it shows.
    window.addEventListener("pageshow", read);
    return () => window.removeEventListener("pageshow", read);
  }, [campaignId]);

  function giveAgain() {
    forgetRecentGift(campaignId);
    setShown(null);
    const area = document.getElementById(formAreaId);
    const target = area?.querySelector<HTMLElement>("form input:checked") ?? area?.querySelector<HTMLElement>("form input, form button");
    target?.focus();
  }

  const gift = shown?.gift;
  const what = gift?.tickets
    ? `You got ${gift.tickets} ticket${gift.tickets === 1 ? "" : "s"}`
    : gift && `You gave ${formatMoney(gift.amountCents, gift.currency, { short: true })}`;
  return (
    <div role="status">
      {gift && (
        <div className={styles.notice}>
          <span className={styles.icon}>
            <HeartIcon size={18} />
          </span>
          <p className={styles.text}>
            <strong>
              {what} {shown.since}.
            </strong>{" "}
            Thank you! Your receipt is on its way.
          </p>
          <button type="button" className={styles.again} onClick={giveAgain}>
            {gift.tickets ? "Get more tickets" : "Give again"}
          </button>
        </div>
      )}
    </div>
  );
}
