import { Link, Text } from "@react-email/components";
import type { UnfinishedGiftProps } from "@/lib/email/types";
import { emailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { previewCampaign } from "./_components/preview";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { UnfinishedGiftProps };

export const subject = (p: UnfinishedGiftProps): string => emailIntl(p.locale).t("unfinishedGift.subject", { campaign: p.campaignTitle });

/**
 * The one reminder to a donor who ticked "Remind me if I don't finish" and left a gift unpaid: a
 * button that reopens the donate form with the same campaign and amount, and a link that stops
 * these reminders from the organization.
 */
export default function UnfinishedGift(props: UnfinishedGiftProps & TestModeProps) {
  const intl = emailIntl(props.locale);
  const { t } = intl;
  const amount = intl.money(props.amountCents, props.currency);
  const name = props.donorFirstName?.trim() || null;
  const { campaignTitle: campaign, orgName: org } = props;
  const interval = props.interval ?? "ONCE";
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t("unfinishedGift.preview", { amount, org })}
      heading={name ? t("unfinishedGift.headingName", { name }) : t("unfinishedGift.heading")}
      headingStyle={styles.h1Compact}
      footer={
        <>
          {t("unfinishedGift.footer", { org, email: props.donorEmail })}{" "}
          <Link href={props.unsubscribeUrl} style={styles.link}>
            {t("unfinishedGift.unsubscribe")}
          </Link>
        </>
      }
    >
      <Text style={styles.text}>{t("unfinishedGift.body", { interval, amount, campaign })}</Text>
      <Text style={styles.text}>{t("unfinishedGift.ask")}</Text>
      <Action href={props.url} spelledOut locale={props.locale}>
        {t("unfinishedGift.action")}
      </Action>
    </EmailLayout>
  );
}

UnfinishedGift.PreviewProps = {
  ...previewCampaign,
  donorFirstName: "Maya",
  donorEmail: "maya.okafor@example.org",
  amountCents: 5000,
  currency: "usd",
  interval: null,
  url: "https://goodfund.example.org/o/riverside/donate/clean-water?amount=5000",
  unsubscribeUrl: "https://goodfund.example.org/o/riverside/reminders/unsubscribe?token=preview",
} satisfies UnfinishedGiftProps;
