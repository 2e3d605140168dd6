import { Text } from "@react-email/components";
import type { AdminNotificationProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { donorContactRows, GiftSummary } from "./_components/gift-summary";
import { Action, EmailLayout } from "./_components/layout";
import { previewCampaign } from "./_components/preview";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { AdminNotificationProps };

const adjective = { WEEK: "weekly", MONTH: "monthly", QUARTER: "quarterly", YEAR: "yearly" } as const;

const donorLabel = (p: AdminNotificationProps) => p.donorName?.trim() || p.donorEmail || "A donor";

export const subject = (p: AdminNotificationProps): string => {
  const amount = formatMoney(p.amountCents, p.currency);
  if (p.isRenewal) return `Recurring gift renewed: ${amount} to ${p.campaignTitle} from ${donorLabel(p)}`;
  return `New donation: ${amount} to ${p.campaignTitle} from ${donorLabel(p)}`;
};

/** Tells the organization's notification address about a gift; staff see the donor even when the gift is anonymous. */
export default function AdminNotification(props: AdminNotificationProps & TestModeProps) {
  const amount = formatMoney(props.amountCents, props.currency);
  const fee = props.feeCents ?? 0;
  // The charged amount, as the receipt and the thank-you page show it; what of it covered fees, beside.
  const charged =
    fee > 0
      ? `${amount} (a ${formatMoney(props.amountCents - fee, props.currency)} gift and ${formatMoney(fee, props.currency)} to cover fees)`
      : amount;
  const donor = donorLabel(props);
  const kind = props.recurringInterval ? `${adjective[props.recurringInterval]} ` : "";

  return (
    <EmailLayout
      testMode={props.testMode}
      preview={`${donor} gave ${amount} to ${props.campaignTitle}`}
      heading={props.isRenewal ? `A ${kind}gift was renewed` : `New ${kind}donation to ${props.campaignTitle}`}
      headingStyle={styles.h1Compact}
      footer={`You receive this because this address is the notification email of ${props.orgName} on Goodfund.`}
    >
      <Text style={styles.text}>
        {`${donor} ${props.isRenewal ? "renewed their" : "made a"} ${kind}gift of ${amount} to ${props.campaignTitle}, a campaign of ${props.orgName}.`}
      </Text>
      {props.anonymous ? (
        <Text style={styles.text}>The donor asked to stay anonymous: their name is not shown on public pages.</Text>
      ) : null}
      {props.message ? <Text style={styles.quote}>“{props.message}”</Text> : null}
      <GiftSummary
        rows={[
          ...donorContactRows(props.donorName, props.donorEmail),
          ["Amount", props.recurringInterval ? `${charged}, ${adjective[props.recurringInterval]}` : charged],
          ["Campaign", props.campaignTitle],
          ["Donation ID", props.donationId],
        ]}
      />
      <Action href={props.dashboardUrl}>View the donation</Action>
    </EmailLayout>
  );
}

AdminNotification.PreviewProps = {
  ...previewCampaign,
  donorName: "Maya Okafor",
  donorEmail: "maya.okafor@example.org",
  anonymous: false,
  amountCents: 5000,
  currency: "usd",
  message: "For the new well in the east district.",
  donationId: "don_01HZX4K9Q2M7V3T8",
  isRenewal: false,
  recurringInterval: "MONTH",
  dashboardUrl: "https://goodfund.example.org/dashboard/riverside/donations/don_01HZX4K9Q2M7V3T8",
} satisfies AdminNotificationProps;
