import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { PlanCanceledProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { styles } from "./plan-canceled";

const adjective = { MONTH: "monthly", YEAR: "yearly" } as const;

const donorLabel = (p: PlanCanceledProps) => p.donorName?.trim() || p.donorEmail;

export const subject = (p: PlanCanceledProps): string =>
  `Recurring gift canceled by the donor: ${formatMoney(p.amountCents, p.currency)} ${adjective[p.interval]} to ${p.campaignTitle} from ${donorLabel(p)}`;

/** Tells the organization's notification address that a donor canceled their recurring gift from their account. */
export default function PlanCanceledNotice(props: PlanCanceledProps & TestModeProps) {
  const amount = formatMoney(props.amountCents, props.currency);
  const kind = adjective[props.interval];
  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`${donorLabel(props)} canceled their ${kind} gift of ${amount}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            A donor canceled their {kind} gift
          </Heading>
          <Text style={styles.text}>
            {`${donorLabel(props)} canceled their ${kind} gift of ${amount} to ${props.campaignTitle} from their donor account. No further renewals will be charged.`}
          </Text>
          <Section style={styles.box}>
            <Text style={styles.row}>
              <strong>Donor:</strong> {props.donorName?.trim() || "Not given"}
            </Text>
            <Text style={styles.row}>
              <strong>Email:</strong> {props.donorEmail}
            </Text>
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
              View recurring plans
            </Button>
          </Section>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>
            {`You receive this because this address is the notification email of ${props.orgName} on Goodfund.`}
          </Text>
        </Container>
      </Body>
    </Html>
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
