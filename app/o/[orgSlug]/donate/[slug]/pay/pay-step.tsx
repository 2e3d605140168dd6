"use client";

import { useEffect, useSyncExternalStore, type MouseEvent } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { PaymentStep, type PaymentStepDonation } from "@/components/donate/payment-step";
import type { PaymentConfig } from "@/components/donate/types";
import { intlTag } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/money";
import formStyles from "@/components/donate/donate-form.module.css";
import styles from "../page.module.css";

const HEADING_ID = "payment-heading";

const subscribeToHash = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
};

/** The client secret the URL's fragment carries (`#pi_…_secret_…`), or "" when it has none (or a garbled one). */
function secretOf(hash: string): string {
  try {
    return decodeURIComponent(hash.replace(/^#/, ""));
  } catch {
    return "";
  }
}

/**
 * Whether the donor came here from the donate page (the form's POST answers with a redirect
 * here, which keeps the form's page as the referrer) and can go back to it in this tab: then
 * the browser's Back restores the form as they filled it, where following the link would
 * load it empty.
 */
function cameFromDonatePage(donatePaths: string[]): boolean {
  if (!document.referrer || window.history.length < 2) return false;
  try {
    const referrer = new URL(document.referrer);
    return referrer.origin === window.location.origin && donatePaths.includes(referrer.pathname.replace(/(.)\/$/, "$1"));
  } catch {
    return false;
  }
}

/** Focuses the step's heading once the page shows, so screen readers start at the step and Tab goes on from there. */
function useFocusHeading() {
  useEffect(() => document.getElementById(HEADING_ID)?.focus(), []);
}

/**
 * The payment page's step 2: the donate form's own payment step, paying the donation whose
 * client secret the URL's fragment carries (never sent to the server, so never in its logs).
 * The server renders the step without the card form, which follows once the fragment is read.
 */
export function PayStep(props: {
  isEvent: boolean;
  campaignTitle: string;
  organizationName: string;
  currency: string;
  donation: PaymentStepDonation;
  payment: PaymentConfig;
  thankYouPath: string;
  /** The donate page's link, with `?lang=`. */
  donateHref: string;
  /** The donate page's paths on this origin, as a referrer shows them. */
  donatePaths: string[];
}) {
  const { donateHref, donatePaths } = props;
  const t = useTranslations("donate");
  const { locale } = useLocale();
  const tag = intlTag(locale);
  // Null in the server's render and hydration, which can't know the fragment.
  const hash = useSyncExternalStore(
    subscribeToHash,
    () => window.location.hash,
    () => null,
  );
  useFocusHeading();
  const clientSecret = hash === null ? null : secretOf(hash);
  if (clientSecret === "") return <PayNotice text={t("payment.missingSecret")} href={donateHref} />;

  const backToForm = (ev: MouseEvent<HTMLAnchorElement>) => {
    // A click meant for a new tab or window follows the link.
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    if (!cameFromDonatePage(donatePaths)) return;
    ev.preventDefault();
    window.history.back();
  };
  return (
    <PaymentStep
      isEvent={props.isEvent}
      campaignTitle={props.campaignTitle}
      organizationName={props.organizationName}
      money={(cents) => formatMoney(cents, props.currency, { locale: tag })}
      headingId={HEADING_ID}
      headingLevel={1}
      donation={props.donation}
      clientSecret={clientSecret}
      payment={props.payment}
      thankYouPath={props.thankYouPath}
      changeGift={{ href: donateHref, onClick: backToForm }}
      ownPage
    />
  );
}

/** Step 2 when this page can't take the payment: why, and the way back to the donate page. */
export function PayNotice({ text, href }: { text: string; href: string }) {
  const t = useTranslations("donate");
  useFocusHeading();
  return (
    <div className={formStyles.form}>
      <p className={formStyles.stepLabel}>{t("form.step", { step: 2, total: 2 })}</p>
      <h1 className={formStyles.stepHeading} id={HEADING_ID} tabIndex={-1}>
        {t("payment.heading")}
      </h1>
      <p className={formStyles.reviewText}>{text}</p>
      <a className={styles.retry} href={href}>
        {t("payment.startAgain")}
      </a>
    </div>
  );
}
