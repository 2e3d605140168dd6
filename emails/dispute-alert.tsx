import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { DisputeAlertProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { DisputeAlertProps };

/** "April 26, 2025 at 11:59 PM UTC": deadlines are exact, so the time and zone are spelled out. */
function formatDeadline(iso: string): string {
  const when = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso));
  return `${when} UTC`;
}

/** The processor's reason code in words: `product_not_received` → "Product not received". */
function describeReason(reason: string): string {
  const words = reason.replace(/[_-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Not given";
}

export const subject = (p: DisputeAlertProps): string => {
  const amount = formatMoney(p.amountCents, p.currency);
  const by = p.responseDeadline ? `respond by ${formatDeadline(p.responseDeadline)}` : "respond as soon as possible";
  return `Action needed: a ${amount} donation to ${p.campaignTitle} was disputed (${by})`;
};

/** Tells the organization a donation was disputed: how much, why, and by when to answer with evidence. */
export default function DisputeAlert(props: DisputeAlertProps & TestModeProps) {
  const amount = formatMoney(props.amountCents, props.currency);
  const deadline = props.responseDeadline ? formatDeadline(props.responseDeadline) : null;
  const reason = describeReason(props.reason);

  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`A ${amount} donation was disputed${deadline ? `; respond by ${deadline}` : ""}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            A donation was disputed
          </Heading>
          <Text style={styles.text}>
            {`The donor’s bank has disputed a ${amount} donation to ${props.campaignTitle}, a campaign of ${props.orgName}. The amount is held back until the dispute is resolved.`}
          </Text>
          <Section style={styles.box}>
            <Text style={styles.row}>
              <strong>Amount:</strong> {amount}
            </Text>
            <Text style={styles.row}>
              <strong>Reason:</strong> {reason}
            </Text>
            <Text style={styles.row}>
              <strong>Respond by:</strong> {deadline ?? "No deadline given: respond as soon as possible"}
            </Text>
            <Text style={styles.row}>
              <strong>Donor email:</strong> {props.donorEmail}
            </Text>
            <Text style={styles.row}>
              <strong>Donation ID:</strong> {props.donationId}
            </Text>
          </Section>
          <Text style={styles.text}>
            {deadline
              ? `Submit your evidence (a receipt, correspondence with the donor) before ${deadline}. Without a response, the dispute is usually lost.`
              : "Submit your evidence (a receipt, correspondence with the donor) as soon as you can. Without a response, the dispute is usually lost."}
          </Text>
          <Section style={styles.actions}>
            <Button href={props.dashboardUrl} style={styles.button}>
              Review the dispute
            </Button>
          </Section>
          <Hr style={styles.hr} />
          <Text
            style={styles.footer}
          >{`You receive this because this address is the notification email of ${props.orgName} on Goodfund.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}

DisputeAlert.PreviewProps = {
  orgName: "Riverside Water Trust",
  campaignTitle: "Clean Water for Riverside",
  donationId: "don_01HZX4K9Q2M7V3T8",
  amountCents: 25_000,
  currency: "usd",
  reason: "product_not_received",
  responseDeadline: "2025-04-26T23:59:59.000Z",
  donorEmail: "maya.okafor@example.org",
  dashboardUrl: "https://goodfund.example.org/dashboard/riverside/donations/don_01HZX4K9Q2M7V3T8",
} satisfies DisputeAlertProps;

const styles = {
  ...base,
  h1: { fontSize: "24px", lineHeight: "32px", margin: "0 0 16px", color: "#991b1b" },
  box: { backgroundColor: "#fef2f2", border: "1px solid #fecaca", borderRadius: "6px", padding: "16px 20px", margin: "8px 0 16px" },
  button: {
    backgroundColor: "#b91c1c",
    borderRadius: "6px",
    color: "#ffffff",
    fontSize: "16px",
    fontWeight: 600,
    padding: "12px 20px",
    textDecoration: "none",
  },
} as const;
