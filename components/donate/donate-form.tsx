"use client";

import { TierPicker } from "./tier-picker";
import { usesTierPicker } from "./donate-schema";
import { AmountPicker } from "./amount-picker";
import { DedicationFields } from "./dedication-fields";
import { DonorDetails } from "./donor-details";
import { FieldError } from "./field-error";
import { FrequencyPicker } from "./frequency-picker";
import { CoverFees, GiftSummary } from "./gift-summary";
import { LockIcon } from "./icons";
import { PaymentStep, preloadPaymentStep } from "./payment-step";
import { AddressFields, GiftAidFields } from "./receipt-fields";
import { TicketPicker } from "./ticket-picker";
import { Turnstile } from "./turnstile";
import type { DonateFormCampaign, PaymentConfig } from "./types";
import { useDonateForm, type DonateFormAnswer } from "./use-donate-form";
import styles from "./donate-form.module.css";

export type DonateFormProps = {
  campaign: DonateFormCampaign;
  organizationName: string;
  currency: string;
  payment: PaymentConfig;
  /** Path of the thank-you page (`/o/:org/donate/:slug/thank-you`). */
  thankYouPath: string;
  /** Cloudflare Turnstile, when the server requires it: its site key and the page's CSP nonce. */
  captcha?: { siteKey: string; nonce?: string } | null;
  /**
   * The donate page, which posts the form to itself and renders it without React in the browser:
   * the server's last answer to a post, and the attempt the form's posts belong to (see
   * app/o/[orgSlug]/donate/[slug]/post-gift.ts).
   */
  posted?: { answer?: DonateFormAnswer; attempt: string; fresh: boolean };
};

/**
 * The donate form, in two steps: the gift and the donor (checked with the API's own rules, then
 * POST /api/donations), then the payment of the donation it created.
 */
export function DonateForm({ campaign, organizationName, currency, payment, thankYouPath, captcha, posted }: DonateFormProps) {
  const { state: f, actions } = useDonateForm({ campaign, currency, captcha: Boolean(captcha), initial: posted?.answer });
  const { onSubmit, setTurnstile, onCaptchaToken, onCaptchaUnavailable, changeGift, acceptOffer, declineOffer } = actions;
  const { ids, isEvent, t } = f;

  if (f.created) {
    return (
      <PaymentStep
        isEvent={isEvent}
        campaignTitle={campaign.title}
        organizationName={organizationName}
        money={f.money}
        headingId={ids.id("payment")}
        headingLevel={3}
        donation={f.created}
        clientSecret={f.created.clientSecret}
        payment={payment}
        thankYouPath={thankYouPath}
        changeGift={{ onClick: changeGift }}
      />
    );
  }

  const captchaError = f.errorOf("captchaToken");
  return (
    <form
      id={ids.id("form")}
      className={styles.form}
      method="post"
      data-donate-form=""
      // Where the page puts the focus once it shows the server's answer: the monthly offer, or
      // the first field with a problem.
      data-focus={f.offer !== null ? "upsell" : Object.keys(posted?.answer?.problems ?? {}).length > 0 ? "problem" : undefined}
      onSubmit={(ev) => {
        preloadPaymentStep(payment.mode);
        void onSubmit(ev);
      }}
      noValidate
      aria-describedby={ids.id("steps")}
    >
      <p className={styles.stepLabel} id={ids.id("steps")}>
        {t("form.step", { step: 1, total: 2 })}
      </p>
      {posted && (
        // A fresh attempt (a page opened anew) gives way to the one this tab already has for the
        // campaign (the page's script keeps it, as payment-attempt.ts does for the embed's form).
        <input type="hidden" name="attempt" value={posted.attempt} data-fresh-attempt={posted.fresh ? "" : undefined} />
      )}

      {isEvent ? usesTierPicker(f.campaign) ? <TierPicker f={f} /> : <TicketPicker f={f} /> : <AmountPicker f={f} currency={currency} />}
      {f.limits.frequencies.length > 0 && <FrequencyPicker f={f} />}
      <DonorDetails f={f} organizationName={organizationName} />
      <AddressFields f={f} organizationName={organizationName} />
      <GiftAidFields f={f} />
      {!isEvent && <DedicationFields f={f} />}
      <CoverFees f={f} organizationName={organizationName} />

      {captcha && (
        <div
          className={styles.field}
          id={ids.id("captchaToken")}
          tabIndex={-1}
          aria-describedby={captchaError ? ids.errorId("captchaToken") : undefined}
          data-turnstile={captcha.siteKey}
        >
          {posted && <input type="hidden" name="captchaToken" value="" />}
          <Turnstile
            ref={setTurnstile}
            siteKey={captcha.siteKey}
            nonce={captcha.nonce}
            onToken={onCaptchaToken}
            onUnavailable={onCaptchaUnavailable}
          />
          <FieldError id={ids.errorId("captchaToken")} text={captchaError} />
        </div>
      )}

      <GiftSummary f={f} />

      {/* Before the monthly offer: while the offer shows, this hidden "Continue" stays the form's
          default button, so Enter in a field does not take the offer (a monthly gift) by itself. */}
      <div className={styles.actions} hidden={f.offer !== null}>
        {/* Always in the page, so assistive technology announces the text when it appears. */}
        <div className={styles.alert} role="alert">
          {f.formError}
        </div>
        {/* aria-disabled rather than disabled: the button keeps focus while the request runs. */}
        <button
          type="submit"
          className={styles.submit}
          aria-disabled={f.submitting || undefined}
          data-saving={t("form.saving")}
          data-spinner-class={styles.spinner}
        >
          {f.submitting ? (
            <>
              <span className={styles.spinner} aria-hidden="true" /> {t("form.saving")}
            </>
          ) : (
            t("form.submit")
          )}
        </button>
      </div>

      {f.offer !== null && f.amountCents !== null ? (
        <section className={styles.upsell} id={ids.id("upsell")} tabIndex={-1} aria-labelledby={ids.id("upsell-title")}>
          <h2 className={styles.upsellTitle} id={ids.id("upsell-title")}>
            {t("upsell.title")}
          </h2>
          <p>{t("upsell.body", { monthly: f.money(f.offer), amount: f.money(f.amountCents), org: organizationName })}</p>
          <div className={styles.upsellActions}>
            {/* Submit buttons, so the page without React posts the donor's answer with the form. */}
            <button
              type="submit"
              name="upsell"
              value="ACCEPTED"
              className={styles.submit}
              onClick={(ev) => {
                ev.preventDefault();
                void acceptOffer();
              }}
            >
              {t("upsell.accept", { monthly: f.money(f.offer) })}
            </button>
            <button
              type="submit"
              name="upsell"
              value="DECLINED"
              className={styles.secondary}
              onClick={(ev) => {
                ev.preventDefault();
                void declineOffer();
              }}
            >
              {t("upsell.decline", { amount: f.money(f.amountCents) })}
            </button>
          </div>
        </section>
      ) : null}
      <p className={styles.secureNote}>
        <LockIcon /> {t("form.secureNote")}
      </p>
    </form>
  );
}
