import { Link, Text } from "@react-email/components";
import type { RefundConfirmationProps } from "@/lib/email/types";
import { GiftSummary } from "./_components/gift-summary";
import { emailIntl, greetingName } from "./_components/i18n";
import { EmailLayout } from "./_components/layout";
import { previewCampaign, previewDonor } from "./_components/preview";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { RefundConfirmationProps };

const inFull = (p: RefundConfirmationProps) => p.refundedAmountCents >= p.amountCents;

export const subject = (p: RefundConfirmationProps): string => {
  const intl = emailIntl(p.locale);
  return intl.t("refund.subject", { amount: intl.money(p.refundedAmountCents, p.currency), org: p.orgName });
};

/**
 * Confirms to the donor that their gift was refunded: how much went back and when, the gift it
 * undoes (amount, date, campaign, donation ID), when the money arrives, and whom to ask.
 */
export default function RefundConfirmation(props: RefundConfirmationProps & TestModeProps) {
  const intl = emailIntl(props.locale, props.timeZone);
  const { t } = intl;
  const name = greetingName(props);
  const refunded = intl.money(props.refundedAmountCents, props.currency);
  const gift = intl.money(props.amountCents, props.currency);
  const date = intl.date(props.refundedAt);
  const full = inFull(props);
  const { orgName: org, campaignTitle: campaign, orgContactEmail: contact } = props;

  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t("refund.preview", { amount: refunded, org })}
      heading={name ? t("refund.headingName", { name }) : t("refund.heading")}
      footer={t("refund.footer", { email: props.donorEmail, org })}
    >
      <Text style={styles.text}>
        {full ? t("refund.full", { org, gift, campaign, date }) : t("refund.partial", { org, refunded, gift, campaign, date })}
      </Text>
      <Text style={styles.text}>{t("refund.timing")}</Text>

      <GiftSummary
        locale={props.locale}
        rows={[
          { heading: t("refund.refundTitle") },
          [t("refund.amountRefunded"), refunded],
          [t("refund.refundDate"), date],
          { heading: t("refund.originalTitle") },
          [t("labels.amount"), gift],
          [t("labels.date"), intl.date(props.donatedAt)],
          [t("labels.campaign"), campaign],
          [t("labels.organization"), org],
          [t("labels.donationId"), props.donationId],
        ]}
      />

      <Text style={styles.note}>{full ? t("refund.taxFull") : t("refund.taxPartial")}</Text>

      <Text style={styles.text}>
        {contact
          ? t.rich("refund.questionsEmail", {
              org,
              email: contact,
              link: (chunks) => (
                <Link href={`mailto:${contact}`} style={styles.link}>
                  {chunks}
                </Link>
              ),
            })
          : t("refund.questions", { org })}
      </Text>
    </EmailLayout>
  );
}

RefundConfirmation.PreviewProps = {
  ...previewCampaign,
  ...previewDonor,
  refundedAmountCents: 5000,
  refundedAt: "2025-04-20T09:15:00.000Z",
  amountCents: 5000,
  currency: "usd",
  donatedAt: "2025-04-12T15:30:00.000Z",
  donationId: "don_01HZX4K9Q2M7V3T8",
  orgContactEmail: "hello@riversidewater.example.org",
} satisfies RefundConfirmationProps;
