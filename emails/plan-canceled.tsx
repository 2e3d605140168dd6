import { Text } from "@react-email/components";
import type { PlanCanceledProps } from "@/lib/email/types";
import { GiftSummary } from "./_components/gift-summary";
import { emailIntl, greetingName } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { previewCampaign, previewDonor } from "./_components/preview";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { PlanCanceledProps };

export const subject = (p: PlanCanceledProps): string =>
  emailIntl(p.locale).t("planCanceled.subject", { interval: p.interval, org: p.orgName });

/** Confirms to a donor that the recurring gift they canceled from their account ends now: no further charges. */
export default function PlanCanceled(props: PlanCanceledProps & TestModeProps) {
  const intl = emailIntl(props.locale, props.timeZone);
  const { t } = intl;
  const amount = intl.money(props.amountCents, props.currency);
  const name = greetingName(props);
  const { interval, campaignTitle: campaign, orgName: org } = props;
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t("planCanceled.preview", { interval, amount, campaign })}
      heading={name ? t("planCanceled.headingName", { name, interval }) : t("planCanceled.heading", { interval })}
      headingStyle={styles.h1Compact}
      footer={t("planCanceled.footer", { email: props.donorEmail ?? "", org })}
    >
      <Text style={styles.text}>{t("planCanceled.body", { interval, amount, campaign, date: intl.date(props.canceledAt) })}</Text>
      <Text style={styles.text}>{t("planCanceled.thanks", { org })}</Text>
      <GiftSummary
        locale={props.locale}
        rows={[
          [t("labels.gift"), t("planCanceled.giftValue", { amount, interval })],
          [t("labels.campaign"), campaign],
          [t("labels.planId"), props.planId],
        ]}
      />
      <Action href={props.url}>{t("common.openAccount")}</Action>
    </EmailLayout>
  );
}

PlanCanceled.PreviewProps = {
  ...previewCampaign,
  ...previewDonor,
  amountCents: 2500,
  currency: "usd",
  interval: "MONTH",
  planId: "rp_01HZX4K9Q2M7V3T8",
  canceledAt: "2025-04-20T09:15:00.000Z",
  url: "https://goodfund.example.org/o/riverside/account",
} satisfies PlanCanceledProps;
