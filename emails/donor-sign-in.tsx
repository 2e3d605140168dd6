import { Text } from "@react-email/components";
import type { DonorSignInProps } from "@/lib/email/types";
import { emailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { DonorSignInProps };

export const subject = (p: DonorSignInProps): string => emailIntl(p.locale).t("signIn.subject", { org: p.orgName });

/** A donor's single-use link to their account on an organization's pages (gifts, receipts, plans, statements). */
export default function DonorSignIn(props: DonorSignInProps & TestModeProps) {
  const { t } = emailIntl(props.locale);
  const org = props.orgName;
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t("signIn.preview", { org })}
      heading={t("signIn.heading")}
      footer={t("signIn.footer")}
    >
      <Text style={styles.text}>{t("signIn.body", { org, minutes: props.expiresInMinutes })}</Text>
      <Action href={props.url} spelledOut locale={props.locale}>
        {t("common.openAccount")}
      </Action>
    </EmailLayout>
  );
}

DonorSignIn.PreviewProps = {
  url: "https://goodfund.example.org/o/riverside/account/sign-in?token=Yk3vQ9x2c7",
  orgName: "Riverside Water Trust",
  expiresInMinutes: 15,
} satisfies DonorSignInProps;
