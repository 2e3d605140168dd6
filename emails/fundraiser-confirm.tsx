import { Text } from "@react-email/components";
import type { FundraiserConfirmProps } from "@/lib/email/types";
import { emailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { FundraiserConfirmProps };

export const subject = (p: FundraiserConfirmProps): string =>
  emailIntl(p.locale).t("fundraiser.confirm.subject", { campaign: p.parentTitle });

/** A supporter's single-use link that creates the fundraiser page they asked for and signs them in. */
export default function FundraiserConfirm(props: FundraiserConfirmProps & TestModeProps) {
  const { t } = emailIntl(props.locale);
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t("fundraiser.confirm.preview", { campaign: props.parentTitle })}
      heading={t("fundraiser.confirm.heading")}
      footer={t("fundraiser.confirm.footer")}
    >
      <Text style={styles.text}>
        {t("fundraiser.confirm.body", {
          name: props.firstName,
          campaign: props.parentTitle,
          org: props.orgName,
          hours: props.expiresInHours,
        })}
      </Text>
      <Action href={props.url} spelledOut locale={props.locale}>
        {t("fundraiser.confirm.action")}
      </Action>
    </EmailLayout>
  );
}

FundraiserConfirm.PreviewProps = {
  url: "https://goodfund.example.org/o/riverside/fundraise/confirm?token=Yk3vQ9x2c7",
  orgName: "Riverside Water Trust",
  parentTitle: "River Run 2026",
  firstName: "Maya",
  expiresInHours: 24,
} satisfies FundraiserConfirmProps;
