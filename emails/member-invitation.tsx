import { Text } from "@react-email/components";
import type { MemberInvitationProps } from "@/lib/email/types";
import { GiftSummary } from "./_components/gift-summary";
import { Action, EmailLayout } from "./_components/layout";
import type { TestModeProps } from "./_components/test-mode-note";
import { base as styles } from "./_components/styles";

export type { MemberInvitationProps };

const ROLE = {
  OWNER: { name: "Owner", article: "an", can: "Owners can do everything, including managing members and payouts." },
  ADMIN: { name: "Admin", article: "an", can: "Admins can see everything and manage campaigns, refunds, webhooks and settings." },
  MEMBER: { name: "Member", article: "a", can: "Members can see everything: campaigns, donations, donors, reports and exports." },
} as const;

/** "Sam Lee (sam@example.org)", the bare email without a name, or null when no person added them. */
const inviterOf = (p: MemberInvitationProps) => {
  if (!p.invitedBy) return null;
  const name = p.invitedBy.name?.trim();
  return name ? `${name} (${p.invitedBy.email})` : p.invitedBy.email;
};

export const subject = (p: MemberInvitationProps): string => {
  const by = p.invitedBy ? p.invitedBy.name?.trim() || p.invitedBy.email : null;
  return by ? `${by} invited you to ${p.orgName} on Goodfund` : `You were invited to ${p.orgName} on Goodfund`;
};

/**
 * Tells someone they were added to an organization: by whom, with which role and what it allows,
 * and a link to the sign-in page with their email filled in (never a sign-in token: the outbox
 * keeps this email, and the sign-in page sends its own one-time link).
 */
export default function MemberInvitation(props: MemberInvitationProps & TestModeProps) {
  const role = ROLE[props.role];
  const inviter = inviterOf(props);

  return (
    <EmailLayout
      testMode={props.testMode}
      preview={`Join ${props.orgName} on Goodfund as ${role.article} ${role.name}`}
      heading={`You’re invited to ${props.orgName}`}
      footer={
        inviter
          ? `Not expecting this? You can ignore this email, or ask ${inviter} to remove you from ${props.orgName}.`
          : `Not expecting this? You can ignore this email, or ask ${props.orgName} to remove you.`
      }
    >
      <Text style={styles.text}>
        {inviter
          ? `${inviter} added you to ${props.orgName} on Goodfund as ${role.article} ${role.name}.`
          : `You were added to ${props.orgName} on Goodfund as ${role.article} ${role.name}.`}
      </Text>
      <GiftSummary rows={[["Organization", props.orgName], ["Your role", role.name], { note: role.can }]} />
      <Text style={styles.text}>
        {`Sign in with ${props.memberEmail} to get started: there is no password, Goodfund emails you a sign-in link (or use GitHub or Google with the same address, where offered).`}
      </Text>
      <Action href={props.signInUrl} spelledOut>{`Sign in to ${props.orgName}`}</Action>
    </EmailLayout>
  );
}

MemberInvitation.PreviewProps = {
  orgName: "Riverside Water Trust",
  role: "ADMIN",
  memberEmail: "sam.lee@example.org",
  invitedBy: { name: "Maya Okafor", email: "maya.okafor@example.org" },
  signInUrl: "https://goodfund.example.org/signin?email=sam.lee%40example.org&callbackUrl=%2Fdashboard%2Friverside",
} satisfies MemberInvitationProps;
