"use client";

import { useEffect, useState } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { intlTag } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/money";
import { HeartIcon } from "./icons";
import { forgetRecentGift, minutesSince, readRecentGift, type RecentGift } from "./recent-gift";
import styles from "./gift-notice.module.css";

/**
 * "You gave $50 a moment ago": the donor who comes back to the donate page after a completed
 * gift (Back from the thank-you page, a link) sees that it went through, so they don't give
 * twice by mistake; "Give again" puts the notice away and takes them to the form. Read from this
 * tab's sessionStorage after the page loads; for everyone else the live region stays empty and
 * takes no room.
 */
export function GiftNotice({ campaignId, formAreaId }: { campaignId: string; formAreaId: string }) {
  const [shown, setShown] = useState<{ gift: RecentGift; minutes: number } | null>(null);
  const t = useTranslations("donate.giftNotice");
  const { locale } = useLocale();

  useEffect(() => {
    const read = () => {
      const gift = readRecentGift(campaignId);
      setShown(gift ? { gift, minutes: minutesSince(gift.at) } : null);
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
  const what =
    gift &&
    (gift.tickets
      ? t("got", { count: gift.tickets, minutes: shown.minutes })
      : t("gave", {
          amount: formatMoney(gift.amountCents, gift.currency, { short: true, locale: intlTag(locale) }),
          minutes: shown.minutes,
        }));
  return (
    // The donate page, without React in the browser, fills it with its script (the classes tell it how).
    <div
      role="status"
      data-gift-notice={campaignId}
      data-classes={JSON.stringify({ notice: styles.notice, icon: styles.icon, text: styles.text, again: styles.again })}
    >
      {gift && (
        <div className={styles.notice}>
          <span className={styles.icon}>
            <HeartIcon size={18} />
          </span>
          <p className={styles.text}>
            <strong>{what}</strong> {t("thanks")}
          </p>
          <button type="button" className={styles.again} onClick={giveAgain}>
            {t("again", { tickets: gift.tickets ? "true" : "false" })}
          </button>
        </div>
      )}
    </div>
  );
}
