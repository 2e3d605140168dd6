import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { PlanCanceledProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { PlanCanceledProps };

const adjective = { MONTH: "monthly", YEAR: "yearly" } as const;

function formatDate(iso: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
}

export const subject = (p: PlanCanceledProps): string => `Your ${adjective[p.interval]} gift to ${p.orgName} is canceled`;

/** Confirms to a donor that the recurring gift they canceled from their account ends now: no further charges. */
export default function PlanCanceled(props: PlanCanceledProps & TestModeProps) {
  const amount = formatMoney(props.amountCents, props.currency);
  const name = props.donorFirstName?.trim() || props.donorName?.trim() || null;
  const kind = adjective[props.interval];
  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`Your ${kind} gift of ${amount} to ${props.campaignTitle} will not be charged again`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            {name ? `${name}, your ${kind} gift is canceled` : `Your ${kind} gift is canceled`}
          </Heading>
          <Text style={styles.text}>
            {`You canceled your ${kind} gift of ${amount} to ${props.campaignTitle} on ${formatDate(props.canceledAt)}. Your card will not be charged again for it. Gifts already made stay as they were, and their receipts remain valid.`}
          </Text>
          <Text style={styles.text}>{`Thank you for supporting ${props.orgName}.`}</Text>
          <Section style={styles.box}>
            <Text style={styles.row}>
              <strong>Gift:</strong> {`${amount} (${kind})`}
            </Text>
            <Text style={styles.row}>
              <strong>Campaign:</strong> {props.campaignTitle}
            </Text>
            <Text style={styles.row}>
              <strong>Plan ID:</strong> {props.planId}
            </Text>
          </Section>
          <Section style={styles.actions}>
            <Button href={props.url} style={styles.button}>
              Open my account
            </Button>
          </Section>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>
            {`This confirmation was sent to ${props.donorEmail} on behalf of ${props.orgName} by Goodfund. If you did not cancel this gift, contact ${props.orgName}.`}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

PlanCanceled.PreviewProps = {
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
  url: "https://goodfund.example.org/o/riverside/account",
} satisfies PlanCanceledProps;

export const styles = {
  ...base,
  h1: { fontSize: "22px", lineHeight: "30px", margin: "0 0 16px", color: "#18181b" },
} as const;
