import { Text } from "@react-email/components";
import type { DisputeAlertProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { isTimeZone } from "@/lib/time-zone";
import { GiftSummary } from "./_components/gift-summary";
import { Action, EmailLayout } from "./_components/layout";
import type { TestModeProps } from "./_components/test-mode-note";
import { previewCampaign } from "./_components/preview";
import { base as styles } from "./_components/styles";

export type { DisputeAlertProps };

/**
 * "April 26, 2025 at 7:59 PM EDT": deadlines are exact, so the time and zone are spelled out, in
 * the organization's time zone (UTC for an alert queued before there was one).
 */
function formatDeadline(iso: string, timeZone = "UTC"): string {
  const zone = isTimeZone(timeZone) ? timeZone : "UTC";
  const at = new Date(iso);
  const day = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: zone }).format(at);
  const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: zone, timeZoneName: "short" }).format(at);
  return `${day} at ${time}`;
}

/** The processor's reason code in words: `product_not_received` → "Product not received". */
function describeReason(reason: string): string {
  const words = reason.replace(/[_-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Not given";
}

export const subject = (p: DisputeAlertProps): string => {
  const amount = formatMoney(p.amountCents, p.currency);
  const by = p.responseDeadline ? `respond by ${formatDeadline(p.responseDeadline, p.timeZone)}` : "respond as soon as possible";
  return `Action needed: a ${amount} donation to ${p.campaignTitle} was disputed (${by})`;
};

/** Tells the organization a donation was disputed: how much, why, and by when to answer with evidence. */
export default function DisputeAlert(props: DisputeAlertProps & TestModeProps) {
  const amount = formatMoney(props.amountCents, props.currency);
  const deadline = props.responseDeadline ? formatDeadline(props.responseDeadline, props.timeZone) : null;
  const reason = describeReason(props.reason);

  return (
    <EmailLayout
      testMode={props.testMode}
      preview={`A ${amount} donation was disputed${deadline ? `; respond by ${deadline}` : ""}`}
      heading="A donation was disputed"
      headingStyle={alarm.h1}
      footer={`You receive this because this address is the notification email of ${props.orgName} on Goodfund.`}
    >
      <Text style={styles.text}>
        {`The donor’s bank has disputed a ${amount} donation to ${props.campaignTitle}, a campaign of ${props.orgName}. The amount is held back until the dispute is resolved.`}
      </Text>
      <GiftSummary
        style={alarm.box}
        rows={[
          ["Amount", amount],
          ["Reason", reason],
          ["Respond by", deadline ?? "No deadline given: respond as soon as possible"],
          ["Donor email", props.donorEmail],
          ["Donation ID", props.donationId],
        ]}
      />
      <Text style={styles.text}>
        {deadline
          ? `Submit your evidence (a receipt, correspondence with the donor) before ${deadline}. Without a response, the dispute is usually lost.`
          : "Submit your evidence (a receipt, correspondence with the donor) as soon as you can. Without a response, the dispute is usually lost."}
      </Text>
      <Action href={props.dashboardUrl} style={alarm.button}>
        Review the dispute
      </Action>
    </EmailLayout>
  );
}

DisputeAlert.PreviewProps = {
  ...previewCampaign,
  donationId: "don_01HZX4K9Q2M7V3T8",
  amountCents: 25_000,
  currency: "usd",
  reason: "product_not_received",
  responseDeadline: "2025-04-26T23:59:59.000Z",
  donorEmail: "maya.okafor@example.org",
  dashboardUrl: "https://goodfund.example.org/dashboard/riverside/donations/don_01HZX4K9Q2M7V3T8",
} satisfies DisputeAlertProps;

// A dispute is urgent: red heading, box and button.
const alarm = {
  h1: { ...styles.h1, color: "#991b1b" },
  box: { ...styles.box, backgroundColor: "#fef2f2", border: "1px solid #fecaca" },
  button: { ...styles.button, backgroundColor: "#b91c1c" },
} as const;
