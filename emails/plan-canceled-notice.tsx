import { Text } from "@react-email/components";
import type { PlanCanceledProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { GiftSummary } from "./_components/gift-summary";
import { Action, EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

const adjective = { MONTH: "monthly", YEAR: "yearly" } as const;

const donorLabel = (p: PlanCanceledProps) => p.donorName?.trim() || p.donorEmail;

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
          ["Donor", props.donorName?.trim() || "Not given"],
          ["Email", props.donorEmail],
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
  orgName: "Riverside Water Trust",
  donorFirstName: "Maya",
  donorName: "Maya Okafor",
  donorEmail: "maya.okafor@example.org",
  amountCents: 2500,
  currency: "usd",
  interval: "MONTH",
  campaignTitle: "Clean Water for Riverside",
  planId: "rp_01HZX4K9Q2M7V3T8",
  canceledAt: "2025-04-20T09:15:00.000Z",
  url: "https://goodfund.example.org/dashboard/riverside/recurring",
} satisfies PlanCanceledProps;
