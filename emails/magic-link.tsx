import { Text } from "@react-email/components";
import type { MagicLinkProps } from "@/lib/email/types";
import { Action, EmailLayout } from "./_components/layout";
import type { TestModeProps } from "./_components/test-mode-note";
import { base as styles } from "./_components/styles";

export type { MagicLinkProps };

export const subject = (p: MagicLinkProps): string => `Sign in to Goodfund on ${p.host}`;

/** The dashboard's email sign-in link. */
export default function MagicLink(props: MagicLinkProps & TestModeProps) {
  return (
    <EmailLayout
      testMode={props.testMode}
      preview={`Your sign-in link for ${props.host}`}
      heading="Sign in to Goodfund"
      footer="If you did not ask to sign in, you can ignore this email: nobody can sign in without the link."
    >
      <Text style={styles.text}>{`Use the button below to sign in to ${props.host}. The link works once.`}</Text>
      <Action href={props.url} spelledOut>{`Sign in to ${props.host}`}</Action>
    </EmailLayout>
  );
}

MagicLink.PreviewProps = {
  url: "https://goodfund.example.org/api/auth/callback/email?token=3f9a7c1e&email=maya.okafor%40example.org",
  host: "goodfund.example.org",
} satisfies MagicLinkProps;
