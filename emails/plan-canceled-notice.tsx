import { Text } from "@react-email/components";
import type { PlanCanceledProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { donorContactRows, GiftSummary } from "./_components/gift-summary";
import { Action, EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";
import PlanCanceled from "./plan-canceled";

const adjective = { WEEK: "weekly", MONTH: "monthly", QUARTER: "quarterly", YEAR: "yearly" } as const;

const donorLabel = (p: PlanCanceledProps) => p.donorName?.trim() || p.donorEmail || "A donor";

export const subject = (p: PlanCanceledProps): string =>
  `Recurring gift canceled by the donor: ${formatMoney(p.amountCents, p.currency)} ${adjective[p.interval]} to ${p.campaignTitle} from ${donorLabel(p)}`;

/** Tells the organization's notification address that a donor canceled their recurring gift from their account. */
export default function PlanCanceledNotice(props: PlanCanceledProps & TestModeProps) {
  const amount = formatMoney(props.amountCents, props.currency);
  const kind = adjective[props.interval];
  return (
    <EmailLayout
      testMode={props.testMode}
      preview={`${donorLabel(props)} canceled their ${kind} gift of ${amount}`}
      heading={`A donor canceled their ${kind} gift`}
      headingStyle={styles.h1Compact}
      footer={`You receive this because this address is the notification email of ${props.orgName} on Goodfund.`}
    >
      <Text style={styles.text}>
        {`${donorLabel(props)} canceled their ${kind} gift of ${amount} to ${props.campaignTitle} from their donor account. No further renewals will be charged.`}
      </Text>
      <GiftSummary
        rows={[
          ...donorContactRows(props.donorName, props.donorEmail),
          ["Gift", `${amount} (${kind})`],
          ["Campaign", props.campaignTitle],
          ["Plan ID", props.planId],
        ]}
      />
      <Action href={props.url}>View recurring plans</Action>
    </EmailLayout>
  );
}

PlanCanceledNotice.PreviewProps = {
  ...PlanCanceled.PreviewProps,
  url: "https://goodfund.example.org/dashboard/riverside/recurring",
} satisfies PlanCanceledProps;
