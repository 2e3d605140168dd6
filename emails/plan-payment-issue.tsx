import { Text } from "@react-email/components";
import type { PlanPaymentIssueProps } from "@/lib/email/types";
import { GiftSummary } from "./_components/gift-summary";
import { emailIntl, greetingName } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { previewCampaign, previewDonor } from "./_components/preview";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { PlanPaymentIssueProps };

const SECTION = { "renewal-failed": "renewalFailed", "gave-up": "gaveUp", "card-expiring": "cardExpiring" } as const;

/** "03/2027": the month a card is good through. */
const expiryOf = (card: { expMonth: number; expYear: number }) => `${String(card.expMonth).padStart(2, "0")}/${card.expYear}`;

export const subject = (p: PlanPaymentIssueProps): string =>
  emailIntl(p.locale).t(`planPayment.${SECTION[p.kind]}.subject`, { interval: p.interval, org: p.orgName });

/**
 * To a recurring gift's donor about its payments: a renewal was declined (with the next attempt),
 * the processor stopped the gift after declined payments, or the card expires before the next
 * charge. Each links to their account page, where they replace the card.
 */
export default function PlanPaymentIssue(props: PlanPaymentIssueProps & TestModeProps) {
  const intl = emailIntl(props.locale, props.timeZone);
  const { t } = intl;
  const section = SECTION[props.kind];
  const amount = intl.money(props.amountCents, props.currency);
  const name = greetingName(props);
  const { interval, campaignTitle: campaign, orgName: org, card } = props;
  const expiry = card ? expiryOf(card) : "";
  const date = props.kind === "card-expiring" && props.nextChargeAt ? intl.date(props.nextChargeAt) : "";
  const rows: [string, string][] = [
    [t("labels.gift"), t("planCanceled.giftValue", { amount, interval })],
    [t("labels.campaign"), campaign],
  ];
  if (props.kind === "renewal-failed" && props.nextRetryAt) rows.push([t("planPayment.nextRetry"), intl.date(props.nextRetryAt)]);
  if (props.kind === "card-expiring" && props.nextChargeAt) rows.push([t("planPayment.nextCharge"), intl.date(props.nextChargeAt)]);
  if (card) rows.push([t("planPayment.card"), t("planPayment.cardValue", { last4: card.last4, expiry })]);
  rows.push([t("labels.planId"), props.planId]);
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t(`planPayment.${section}.preview` as const, { interval, amount, campaign, date })}
      heading={
        name
          ? t(`planPayment.${section}.headingName` as const, { name, interval })
          : t(`planPayment.${section}.heading` as const, { interval })
      }
      headingStyle={styles.h1Compact}
      footer={t("planPayment.footer", { email: props.donorEmail, org })}
    >
      <Text style={styles.text}>
        {t(`planPayment.${section}.body` as const, { interval, amount, campaign, last4: card?.last4 ?? "", expiry, date })}
      </Text>
      {props.kind === "renewal-failed" ? (
        <Text style={styles.text}>
          {props.nextRetryAt
            ? t("planPayment.renewalFailed.retry", { date: intl.date(props.nextRetryAt) })
            : t("planPayment.renewalFailed.noRetry")}
        </Text>
      ) : props.kind === "gave-up" ? (
        <Text style={styles.text}>{t("planPayment.gaveUp.again", { org })}</Text>
      ) : (
        <Text style={styles.text}>{t("planPayment.cardExpiring.ask")}</Text>
      )}
      <GiftSummary locale={props.locale} rows={rows} />
      <Action href={props.url} spelledOut locale={props.locale}>
        {t(`planPayment.${section}.action` as const)}
      </Action>
    </EmailLayout>
  );
}

PlanPaymentIssue.PreviewProps = {
  ...previewCampaign,
  ...previewDonor,
  kind: "renewal-failed",
  amountCents: 2500,
  currency: "usd",
  interval: "MONTH",
  planId: "rp_01HZX4K9Q2M7V3T8",
  nextRetryAt: "2025-05-23T09:15:00.000Z",
  nextChargeAt: null,
  card: { brand: "visa", last4: "4242", expMonth: 4, expYear: 2025 },
  url: "https://goodfund.example.org/o/riverside/account#plans-title",
} satisfies PlanPaymentIssueProps;
