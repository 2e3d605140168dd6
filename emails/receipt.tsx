import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { ReceiptProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { ReceiptProps };

function formatDate(iso: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
}

const every = { MONTH: "every month", YEAR: "every year" } as const;
const adjective = { MONTH: "monthly", YEAR: "yearly" } as const;

const greetingName = (p: ReceiptProps) => p.donorFirstName?.trim() || p.donorName?.trim() || null;

export const subject = (p: ReceiptProps): string => {
  const name = greetingName(p);
  const thanks = name ? `Thank you, ${name}!` : "Thank you!";
  const amount = formatMoney(p.amountCents, p.currency);
  if (p.isRenewal && p.recurring)
    return `${thanks} Your ${adjective[p.recurring.interval]} gift of ${amount} to ${p.campaignTitle} was renewed`;
  return `${thanks} Your receipt for ${amount} to ${p.campaignTitle}`;
};

/**
 * The donor's receipt: everything a tax receipt needs (legal name, tax ID, date, amount,
 * donation ID, the goods-or-services statement) plus the dedication and recurring terms.
 */
export default function Receipt(props: ReceiptProps & TestModeProps) {
  const name = greetingName(props);
  const amount = formatMoney(props.amountCents, props.currency);
  const legalName = props.orgLegalName?.trim() || props.orgName;
  const date = formatDate(props.date);
  const recurring = props.recurring;
  const recurringAmount = recurring ? formatMoney(recurring.amountCents, recurring.currency) : null;
  const hasTickets = props.tickets !== null && props.tickets > 0;

  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`Your ${amount} gift to ${props.campaignTitle}: receipt from ${legalName}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            {name ? `Thank you, ${name}!` : "Thank you!"}
          </Heading>
          {props.isRenewal && recurring ? (
            <Text style={styles.text}>
              {`Your ${adjective[recurring.interval]} gift of ${amount} to ${props.campaignTitle} was renewed on ${date}. Thank you for your continued support of ${props.orgName}.`}
            </Text>
          ) : (
            <Text style={styles.text}>
              {`We received your gift of ${amount} to ${props.campaignTitle} on ${date}. ${props.orgName} is grateful for your support.`}
            </Text>
          )}

          {props.dedication ? (
            <Text style={styles.text}>
              {`Your gift was made ${props.dedication.type === "IN_MEMORY" ? "in memory of" : "in honor of"} ${props.dedication.honoreeName}.`}
              {props.dedication.message ? ` Your message: “${props.dedication.message}”` : null}
            </Text>
          ) : null}

          {recurring && recurringAmount ? (
            <Text style={styles.text}>
              {props.accountUrl
                ? `You will be charged ${recurringAmount} ${every[recurring.interval]} until you cancel. You can change or cancel your ${adjective[recurring.interval]} gift from your donor account.`
                : `You will be charged ${recurringAmount} ${every[recurring.interval]} until you cancel. To change or cancel your ${adjective[recurring.interval]} gift, contact ${props.orgName}.`}
            </Text>
          ) : null}

          {hasTickets ? (
            <Text
              style={styles.text}
            >{`Your payment includes ${props.tickets} ${props.tickets === 1 ? "ticket" : "tickets"} for ${props.campaignTitle}.`}</Text>
          ) : null}

          <Section style={styles.box}>
            <Heading as="h2" style={styles.h2}>
              Receipt
            </Heading>
            <Text style={styles.row}>
              <strong>Donor:</strong> {props.donorName?.trim() || props.donorEmail}
            </Text>
            <Text style={styles.row}>
              <strong>Amount:</strong> {amount}
            </Text>
            <Text style={styles.row}>
              <strong>Date:</strong> {date}
            </Text>
            <Text style={styles.row}>
              <strong>Campaign:</strong> {props.campaignTitle}
            </Text>
            <Text style={styles.row}>
              <strong>Organization:</strong> {legalName}
            </Text>
            {props.orgTaxId ? (
              <Text style={styles.row}>
                <strong>Tax ID:</strong> {props.orgTaxId}
              </Text>
            ) : null}
            <Text style={styles.row}>
              <strong>Donation ID:</strong> {props.donationId}
            </Text>
            {hasTickets ? (
              <Text style={styles.row}>
                <strong>Tickets:</strong> {props.tickets}
              </Text>
            ) : null}
          </Section>

          <Text style={styles.small}>
            {hasTickets
              ? `Goods or services (${props.tickets} ${props.tickets === 1 ? "ticket" : "tickets"}) were provided in exchange for this payment; only the amount above their fair market value may be tax-deductible.`
              : "No goods or services were provided in exchange for this contribution."}
            {" Please keep this receipt for your records."}
          </Text>

          <Section style={styles.actions}>
            <Button href={props.campaignUrl} style={styles.button}>
              Visit the campaign
            </Button>
          </Section>

          {props.accountUrl ? (
            <Text style={styles.small}>
              {"See all your gifts and receipts to " + props.orgName + ", and manage recurring gifts, in "}
              <Link href={props.accountUrl} style={styles.link}>
                your donor account
              </Link>
              .
            </Text>
          ) : null}

          <Hr style={styles.hr} />
          <Text style={styles.footer}>{`This receipt was sent to ${props.donorEmail} on behalf of ${legalName} by Goodfund.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}

Receipt.PreviewProps = {
  donorFirstName: "Maya",
  donorName: "Maya Okafor",
  donorEmail: "maya.okafor@example.org",
  amountCents: 5000,
  currency: "usd",
  campaignTitle: "Clean Water for Riverside",
  orgName: "Riverside Water Trust",
  orgLegalName: "Riverside Water Trust, Inc.",
  orgTaxId: "12-3456789",
  date: "2025-04-12T15:30:00.000Z",
  donationId: "don_01HZX4K9Q2M7V3T8",
  dedication: { type: "IN_HONOR", honoreeName: "Grace Okafor", message: "Happy 80th birthday, Grandma!" },
  recurring: { interval: "MONTH", amountCents: 5000, currency: "usd" },
  isRenewal: false,
  tickets: null,
  campaignUrl: "https://goodfund.example.org/o/riverside/donate/clean-water",
  accountUrl: "https://goodfund.example.org/o/riverside/account",
} satisfies ReceiptProps;

const styles = {
  ...base,
  small: { fontSize: "14px", lineHeight: "20px", margin: "0 0 16px", color: "#3f3f46" },
} as const;
