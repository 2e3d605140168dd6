import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { DonorSignInProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";

export type { DonorSignInProps };

export const subject = (p: DonorSignInProps): string => `Your sign-in link for your ${p.orgName} donor account`;

/** A donor's single-use link to their account on an organization's pages (gifts, receipts, plans, statements). */
export default function DonorSignIn(props: DonorSignInProps & TestModeProps) {
  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`Sign in to see your gifts to ${props.orgName}`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            Your donor account
          </Heading>
          <Text style={styles.text}>
            {`Use the button below to see your gifts to ${props.orgName}, your receipts and year-end statements, and manage your recurring gifts. The link works once, within ${props.expiresInMinutes} minutes.`}
          </Text>
          <Section style={styles.actions}>
            <Button href={props.url} style={styles.button}>
              Open my account
            </Button>
          </Section>
          <Text style={styles.small}>
            If the button does not work, open this address in your browser:{" "}
            <Link href={props.url} style={styles.link}>
              {props.url}
            </Link>
          </Text>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>
            If you did not ask for this link, you can ignore this email: nobody can open your account without it.
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

DonorSignIn.PreviewProps = {
  url: "https://goodfund.example.org/o/riverside/account/sign-in?token=Yk3vQ9x2c7",
  orgName: "Riverside Water Trust",
  expiresInMinutes: 15,
} satisfies DonorSignInProps;

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
