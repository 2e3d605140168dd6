import { Section, Text } from "@react-email/components";
import type { MilestoneProps } from "@/lib/email/types";
import { formatMoney } from "@/lib/money";
import { Action, EmailLayout } from "./_components/layout";
import type { TestModeProps } from "./_components/test-mode-note";
import { previewCampaign } from "./_components/preview";
import { base as styles } from "./_components/styles";

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
    <EmailLayout
      testMode={props.testMode}
      preview={`${raised} raised of ${goal}: ${props.campaignTitle} passed ${props.thresholdPct}%`}
      heading={headline(props)}
      footer="Goodfund sends one alert at 25%, 50%, 75% and 100% of each campaign goal."
    >
      <Text style={styles.text}>
        {`Congratulations, ${props.orgName}! ${props.campaignTitle} has raised ${raised} of its ${goal} goal (${pct}%).`}
      </Text>
      <Section style={progress.track} aria-hidden="true" data-skip-in-text="true">
        <div style={{ ...progress.bar, width: `${barPct}%` }}>&nbsp;</div>
      </Section>
      <Text style={styles.text}>
        {props.thresholdPct === 100
          ? "Your supporters made it happen. Consider thanking them, or setting a stretch goal to keep the momentum going."
          : "A good moment to thank your donors and share the progress with your supporters."}
      </Text>
      <Action href={props.dashboardUrl}>Open the campaign dashboard</Action>
    </EmailLayout>
  );
}

Milestone.PreviewProps = {
  ...previewCampaign,
  thresholdPct: 50,
  raisedAmountCents: 1_287_500,
  goalAmountCents: 2_500_000,
  currency: "usd",
  dashboardUrl: "https://goodfund.example.org/dashboard/riverside/campaigns/clean-water",
} satisfies MilestoneProps;

const progress = {
  track: { backgroundColor: "#e4e4e7", borderRadius: "6px", margin: "0 0 16px", height: "12px" },
  bar: { backgroundColor: "#0f766e", borderRadius: "6px", height: "12px", lineHeight: "12px", fontSize: "1px" },
} as const;
