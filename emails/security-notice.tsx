import { Text } from "@react-email/components";
import type { SecurityNoticeProps } from "@/lib/email/types";
import { GiftSummary } from "./_components/gift-summary";
import { Action, EmailLayout } from "./_components/layout";
import type { TestModeProps } from "./_components/test-mode-note";
import { base as styles } from "./_components/styles";

export type { SecurityNoticeProps };

const WORDS: Record<SecurityNoticeProps["kind"], { subject: string; heading: string; text: string }> = {
  "new-sign-in": {
    subject: "New sign-in to your Goodfund account",
    heading: "A new device signed in",
    text: "Your Goodfund account was just signed in to from a device or network it has not used before.",
  },
  "wrong-code": {
    subject: "Wrong two-factor code entered for your Goodfund account",
    heading: "Someone entered a wrong two-factor code",
    text: "A wrong two-factor code was entered for your Goodfund account. After 5 wrong codes in 15 minutes, codes are refused for a while.",
  },
  "two-factor-on": {
    subject: "Two-factor authentication is on for your Goodfund account",
    heading: "Two-factor authentication is on",
    text: "A second factor was added to your Goodfund account. Signing in now asks for it after the sign-in link or provider.",
  },
  "two-factor-off": {
    subject: "Two-factor authentication was turned off for your Goodfund account",
    heading: "Two-factor authentication is off",
    text: "The last second factor of your Goodfund account was removed. Signing in now needs only the sign-in link or provider.",
  },
};

export const subject = (p: SecurityNoticeProps): string => WORDS[p.kind].subject;

/**
 * Tells a staff user about a security event of their account (a new device signed in, a wrong
 * two-factor code, a factor turned on or off): when, from what device and network, and where to
 * review their sessions and factors. English, as staff emails are.
 */
export default function SecurityNotice(props: SecurityNoticeProps & TestModeProps) {
  const words = WORDS[props.kind];
  return (
    <EmailLayout
      testMode={props.testMode}
      preview={words.text}
      heading={words.heading}
      footer="If this was you, there is nothing to do. If it was not, sign out the sessions you don’t know and turn on two-factor authentication."
    >
      <Text style={styles.text}>{words.text}</Text>
      <GiftSummary
        rows={[
          ["Account", props.email],
          ["When", `${props.at.replace("T", " ").slice(0, 16)} UTC`],
          ["Device", props.device],
          ["Network", props.network],
        ]}
      />
      <Action href={props.securityUrl} spelledOut>
        Review your account’s security
      </Action>
    </EmailLayout>
  );
}

SecurityNotice.PreviewProps = {
  kind: "new-sign-in",
  email: "maya.okafor@example.org",
  at: "2025-03-14T09:26:00.000Z",
  device: "Firefox on Windows",
  network: "203.0.113.0/24",
  securityUrl: "https://goodfund.example.org/dashboard/security",
} satisfies SecurityNoticeProps;
