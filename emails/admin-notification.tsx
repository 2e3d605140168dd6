import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { AdminNotificationProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { AdminNotificationProps };

const adjective = { MONTH: "monthly", YEAR: "yearly" } as const;

const donorLabel = (p: AdminNotificationProps) => p.donorName?.trim() || p.donorEmail;

export const subject = (p: AdminNotificationProps): string => {
  const amount = formatMoney(p.amountCents, p.currency);
  if (p.isRenewal) return `Recurring gift renewed: ${amount} to ${p.campaignTitle} from ${donorLabel(p)}`;
  return `New donation: ${amount} to ${p.campaignTitle} from ${donorLabel(p)}`;
};

/** Tells the organization's notification address about a gift; staff see the donor even when the gift is anonymous. */
export default function AdminNotification(props: AdminNotificationProps & TestModeProps) {
  const amount = formatMoney(props.amountCents, props.currency);
  const donor = donorLabel(props);
  const kind = props.recurringInterval ? `${adjective[props.recurringInterval]} ` : "";

  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`${donor} gave ${amount} to ${props.campaignTitle}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            {props.isRenewal ? `A ${kind}gift was renewed` : `New ${kind}donation to ${props.campaignTitle}`}
          </Heading>
          <Text style={styles.text}>
            {`${donor} ${props.isRenewal ? "renewed their" : "made a"} ${kind}gift of ${amount} to ${props.campaignTitle}, a campaign of ${props.orgName}.`}
          </Text>
          {props.anonymous ? (
            <Text style={styles.text}>The donor asked to stay anonymous: their name is not shown on public pages.</Text>
          ) : null}
          {props.message ? <Text style={styles.quote}>“{props.message}”</Text> : null}

          <Section style={styles.box}>
            <Text style={styles.row}>
              <strong>Donor:</strong> {props.donorName?.trim() || "Not given"}
            </Text>
            <Text style={styles.row}>
              <strong>Email:</strong> {props.donorEmail}
            </Text>
            <Text style={styles.row}>
              <strong>Amount:</strong> {props.recurringInterval ? `${amount} (${adjective[props.recurringInterval]})` : amount}
            </Text>
            <Text style={styles.row}>
              <strong>Campaign:</strong> {props.campaignTitle}
            </Text>
            <Text style={styles.row}>
              <strong>Donation ID:</strong> {props.donationId}
            </Text>
          </Section>

          <Section style={styles.actions}>
            <Button href={props.dashboardUrl} style={styles.button}>
              View the donation
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

AdminNotification.PreviewProps = {
  orgName: "Riverside Water Trust",
  donorName: "Maya Okafor",
  donorEmail: "maya.okafor@example.org",
  anonymous: false,
  amountCents: 5000,
  currency: "usd",
  campaignTitle: "Clean Water for Riverside",
  message: "For the new well in the east district.",
  donationId: "don_01HZX4K9Q2M7V3T8",
  isRenewal: false,
  recurringInterval: "MONTH",
  dashboardUrl: "https://goodfund.example.org/dashboard/riverside/donations/don_01HZX4K9Q2M7V3T8",
} satisfies AdminNotificationProps;

const styles = {
  ...base,
  h1: { fontSize: "22px", lineHeight: "30px", margin: "0 0 16px", color: "#18181b" },
} as const;
