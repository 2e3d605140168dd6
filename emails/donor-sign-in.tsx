import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { DonorSignInProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

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
  ...base,
} as const;
