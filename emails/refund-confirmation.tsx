import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { RefundConfirmationProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { RefundConfirmationProps };

function formatDate(iso: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
}

const greetingName = (p: RefundConfirmationProps) => p.donorFirstName?.trim() || p.donorName?.trim() || null;
const inFull = (p: RefundConfirmationProps) => p.refundedAmountCents >= p.amountCents;

export const subject = (p: RefundConfirmationProps): string =>
  `Your refund of ${formatMoney(p.refundedAmountCents, p.currency)} from ${p.orgName} is on its way`;

/**
 * Confirms to the donor that their gift was refunded: how much went back and when, the gift it
 * undoes (amount, date, campaign, donation ID), when the money arrives, and whom to ask.
 */
export default function RefundConfirmation(props: RefundConfirmationProps & TestModeProps) {
  const name = greetingName(props);
  const refunded = formatMoney(props.refundedAmountCents, props.currency);
  const gift = formatMoney(props.amountCents, props.currency);
  const refundDate = formatDate(props.refundedAt);
  const full = inFull(props);

  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`${refunded} is on its way back to you from ${props.orgName}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            {name ? `${name}, your gift was refunded` : "Your gift was refunded"}
          </Heading>
          <Text style={styles.text}>
            {full
              ? `${props.orgName} refunded your gift of ${gift} to ${props.campaignTitle} in full on ${refundDate}.`
              : `${props.orgName} refunded ${refunded} of your gift of ${gift} to ${props.campaignTitle} on ${refundDate}.`}
          </Text>
          <Text style={styles.text}>Refunds usually reach your account within 5–10 business days, depending on your bank.</Text>

          <Section style={styles.box}>
            <Heading as="h2" style={styles.h2}>
              Refund
            </Heading>
            <Text style={styles.row}>
              <strong>Amount refunded:</strong> {refunded}
            </Text>
            <Text style={styles.row}>
              <strong>Refund date:</strong> {refundDate}
            </Text>
            <Heading as="h2" style={{ ...styles.h2, marginTop: "16px" }}>
              Original gift
            </Heading>
            <Text style={styles.row}>
              <strong>Amount:</strong> {gift}
            </Text>
            <Text style={styles.row}>
              <strong>Date:</strong> {formatDate(props.donatedAt)}
            </Text>
            <Text style={styles.row}>
              <strong>Campaign:</strong> {props.campaignTitle}
            </Text>
            <Text style={styles.row}>
              <strong>Organization:</strong> {props.orgName}
            </Text>
            <Text style={styles.row}>
              <strong>Donation ID:</strong> {props.donationId}
            </Text>
          </Section>

          <Text style={styles.small}>
            {full
              ? "The receipt for this gift no longer applies: please don’t claim it as a tax deduction."
              : "Only the part of the gift that was not refunded may be tax-deductible."}
          </Text>

          <Text style={styles.text}>
            {props.orgContactEmail ? (
              <>
                {`Questions about this refund? Contact ${props.orgName} at `}
                <Link href={`mailto:${props.orgContactEmail}`} style={styles.link}>
                  {props.orgContactEmail}
                </Link>
                {" and quote the donation ID."}
              </>
            ) : (
              `Questions about this refund? Contact ${props.orgName} and quote the donation ID.`
            )}
          </Text>

          <Hr style={styles.hr} />
          <Text
            style={styles.footer}
          >{`This confirmation was sent to ${props.donorEmail} on behalf of ${props.orgName} by Goodfund.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}

RefundConfirmation.PreviewProps = {
  donorFirstName: "Maya",
  donorName: "Maya Okafor",
  donorEmail: "maya.okafor@example.org",
  refundedAmountCents: 5000,
  refundedAt: "2025-04-20T09:15:00.000Z",
  amountCents: 5000,
  currency: "usd",
  donatedAt: "2025-04-12T15:30:00.000Z",
  campaignTitle: "Clean Water for Riverside",
  donationId: "don_01HZX4K9Q2M7V3T8",
  orgName: "Riverside Water Trust",
  orgContactEmail: "hello@riversidewater.example.org",
} satisfies RefundConfirmationProps;

const styles = {
  ...base,
  small: { fontSize: "14px", lineHeight: "20px", margin: "0 0 16px", color: "#3f3f46" },
} as const;
