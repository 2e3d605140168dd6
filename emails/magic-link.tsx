import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { MagicLinkProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { MagicLinkProps };

export const subject = (p: MagicLinkProps): string => `Sign in to Goodfund on ${p.host}`;

/** The dashboard's email sign-in link. */
export default function MagicLink(props: MagicLinkProps & TestModeProps) {
  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`Your sign-in link for ${props.host}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            Sign in to Goodfund
          </Heading>
          <Text style={styles.text}>{`Use the button below to sign in to ${props.host}. The link works once.`}</Text>
          <Section style={styles.actions}>
            <Button href={props.url} style={styles.button}>
              {`Sign in to ${props.host}`}
            </Button>
          </Section>
          <Text style={styles.small}>
            If the button does not work, open this address in your browser:{" "}
            <Link href={props.url} style={styles.link}>
              {props.url}
            </Link>
          </Text>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.</Text>
        </Container>
      </Body>
    </Html>
  );
}

MagicLink.PreviewProps = {
  url: "https://goodfund.example.org/api/auth/callback/email?token=3f9a7c1e&email=maya.okafor%40example.org",
  host: "goodfund.example.org",
} satisfies MagicLinkProps;

const styles = {
  ...base,
} as const;
