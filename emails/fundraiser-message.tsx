import { Text } from "@react-email/components";
import type { FundraiserMessageProps } from "@/lib/email/types";
import { emailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { FundraiserMessageProps };

export const subject = (p: FundraiserMessageProps): string => p.subject;

/** Staff's message to every supporter with a page on one of their campaigns. */
export default function FundraiserMessage(props: FundraiserMessageProps & TestModeProps) {
  const { t } = emailIntl(props.locale);
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={props.subject}
      heading={t("fundraiser.message.heading", { campaign: props.parentTitle })}
      footer={t("fundraiser.message.footer", { campaign: props.parentTitle, org: props.orgName })}
    >
      <Text style={styles.text}>{t("fundraiser.message.greeting", { name: props.firstName })}</Text>
      {props.body.split(/\n{2,}/).map((paragraph, i) => (
        <Text key={i} style={styles.text}>
          {paragraph}
        </Text>
      ))}
      <Action href={props.accountUrl}>{t("fundraiser.message.action")}</Action>
    </EmailLayout>
  );
}

FundraiserMessage.PreviewProps = {
  orgName: "Riverside Water Trust",
  parentTitle: "River Run 2026",
  firstName: "Maya",
  subject: "Race day is Saturday",
  body: "Thank you for fundraising!\n\nBib pick-up opens at 7 am.",
  accountUrl: "https://goodfund.example.org/o/riverside/account",
} satisfies FundraiserMessageProps;
