import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { MagicLinkProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";

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
  small: { fontSize: "14px", lineHeight: "20px", margin: "0 0 16px", color: "#3f3f46", wordBreak: "break-all" },
  link: { color: "#0f766e", textDecoration: "underline" },
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
