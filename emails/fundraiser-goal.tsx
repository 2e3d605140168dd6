import { Text } from "@react-email/components";
import type { FundraiserGoalProps } from "@/lib/email/types";
import { emailIntl } from "./_components/i18n";
import { Action, EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { FundraiserGoalProps };

export const subject = (p: FundraiserGoalProps): string => emailIntl(p.locale).t("fundraiser.goal.subject");

/** To a supporter, once: their page reached its goal. */
export default function FundraiserGoal(props: FundraiserGoalProps & TestModeProps) {
  const { t, money } = emailIntl(props.locale);
  const heading = t("fundraiser.goal.heading", { name: props.firstName });
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={heading}
      heading={heading}
      footer={t("fundraiser.goal.footer", { url: props.accountUrl })}
    >
      <Text style={styles.text}>
        {t("fundraiser.goal.body", {
          page: props.pageTitle,
          raised: money(props.raisedAmountCents, props.currency),
          goal: money(props.goalAmountCents, props.currency),
          org: props.orgName,
        })}
      </Text>
      <Action href={props.pageUrl}>{t("fundraiser.goal.action")}</Action>
    </EmailLayout>
  );
}

FundraiserGoal.PreviewProps = {
  orgName: "Riverside Water Trust",
  pageTitle: "Maya runs for clean water",
  firstName: "Maya",
  raisedAmountCents: 52000,
  goalAmountCents: 50000,
  currency: "usd",
  pageUrl: "https://goodfund.example.org/o/riverside/donate/maya-runs",
  accountUrl: "https://goodfund.example.org/o/riverside/account",
} satisfies FundraiserGoalProps;
