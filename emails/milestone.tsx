import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { MilestoneProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";

export type { MilestoneProps };

const headline = (p: MilestoneProps) =>
  p.thresholdPct === 100 ? `${p.campaignTitle} reached its goal!` : `${p.campaignTitle} reached ${p.thresholdPct}% of its goal`;

export const subject = (p: MilestoneProps): string => headline(p);

/** Tells the organization that a campaign crossed 25/50/75/100 % of its goal (each once; the enqueuer dedupes). */
export default function Milestone(props: MilestoneProps & TestModeProps) {
  const raised = formatMoney(props.raisedAmountCents, props.currency);
  const goal = formatMoney(props.goalAmountCents, props.currency);
  const pct = props.goalAmountCents > 0 ? Math.floor((props.raisedAmountCents / props.goalAmountCents) * 100) : props.thresholdPct;
  const barPct = Math.min(100, Math.max(0, pct));

  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`${raised} raised of ${goal}: ${props.campaignTitle} passed ${props.thresholdPct}%`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            {headline(props)}
          </Heading>
          <Text style={styles.text}>
            {`Congratulations, ${props.orgName}! ${props.campaignTitle} has raised ${raised} of its ${goal} goal (${pct}%).`}
          </Text>
          <Section style={styles.track} aria-hidden="true" data-skip-in-text="true">
            <div style={{ ...styles.bar, width: `${barPct}%` }}>&nbsp;</div>
          </Section>
          <Text style={styles.text}>
            {props.thresholdPct === 100
              ? "Your supporters made it happen. Consider thanking them, or setting a stretch goal to keep the momentum going."
              : "A good moment to thank your donors and share the progress with your supporters."}
          </Text>
          <Section style={styles.actions}>
            <Button href={props.dashboardUrl} style={styles.button}>
              Open the campaign dashboard
            </Button>
          </Section>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>Goodfund sends one alert at 25%, 50%, 75% and 100% of each campaign goal.</Text>
        </Container>
      </Body>
    </Html>
  );
}

Milestone.PreviewProps = {
  orgName: "Riverside Water Trust",
  campaignTitle: "Clean Water for Riverside",
  thresholdPct: 50,
  raisedAmountCents: 1_287_500,
  goalAmountCents: 2_500_000,
  currency: "usd",
  dashboardUrl: "https://goodfund.example.org/dashboard/riverside/campaigns/clean-water",
} satisfies MilestoneProps;

const styles = {
  body: {
    backgroundColor: "#f4f4f5",
    color: "#18181b",
    fontFamily: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
    margin: 0,
    padding: "24px 0",
  },
  container: { backgroundColor: "#ffffff", borderRadius: "8px", maxWidth: "560px", margin: "0 auto", padding: "32px" },
  h1: { fontSize: "24px", lineHeight: "32px", margin: "0 0 16px", color: "#18181b" },
  text: { fontSize: "16px", lineHeight: "24px", margin: "0 0 16px", color: "#27272a" },
  track: { backgroundColor: "#e4e4e7", borderRadius: "6px", margin: "0 0 16px", height: "12px" },
  bar: { backgroundColor: "#0f766e", borderRadius: "6px", height: "12px", lineHeight: "12px", fontSize: "1px" },
  actions: { margin: "8px 0 24px" },
  button: {
    backgroundColor: "#0f766e",
    borderRadius: "6px",
    color: "#ffffff",
    fontSize: "16px",
    fontWeight: 600,
    padding: "12px 20px",
    textDecoration: "none",
  },
  hr: { borderColor: "#e4e4e7", margin: "24px 0 16px" },
  footer: { fontSize: "13px", lineHeight: "20px", margin: 0, color: "#52525b" },
} as const;
