import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { DonorErasureRequestProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";

export type { DonorErasureRequestProps };

const who = (p: DonorErasureRequestProps) => (p.donorName ? `${p.donorName} (${p.donorEmail})` : p.donorEmail);

export const subject = (p: DonorErasureRequestProps): string => `A donor asked ${p.orgName} to erase their data`;

/**
 * Tells the organization's staff that a donor asked, from their account page, to have their
 * personal data erased, and that the request waits for an admin's approval (the organization
 * chose to review such requests). Links to the donors page, where admins approve or reject it.
 */
export default function DonorErasureRequest(props: DonorErasureRequestProps & TestModeProps) {
  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`${who(props)} asked to have their personal data erased`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            An erasure request is waiting for you
          </Heading>
          <Text style={styles.text}>
            {`${who(props)} asked ${props.orgName} to erase their personal data. An admin needs to approve or reject the request.`}
          </Text>
          <Section style={styles.box}>
            <Text style={styles.row}>
              Approving removes their name, email, messages and dedications from every record. Their donations stay, without those details,
              so your totals and books do not change. Their open recurring plans are canceled.
            </Text>
          </Section>
          <Section style={styles.actions}>
            <Button href={props.reviewUrl} style={styles.button}>
              Review the request
            </Button>
          </Section>
          <Text style={styles.small}>
            If the button does not work, open this address in your browser:{" "}
            <Link href={props.reviewUrl} style={styles.link}>
              {props.reviewUrl}
            </Link>
          </Text>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>{`You get this email as a contact of ${props.orgName} on Goodfund.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}

DonorErasureRequest.PreviewProps = {
  orgName: "Riverside Water Trust",
  donorName: "Ada Lovelace",
  donorEmail: "ada@example.org",
  reviewUrl: "https://goodfund.example.org/dashboard/riverside/donors#donor-requests",
} satisfies DonorErasureRequestProps;

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
  box: { backgroundColor: "#f4f4f5", borderRadius: "6px", padding: "16px 20px", margin: "8px 0 16px" },
  row: { fontSize: "15px", lineHeight: "22px", margin: "0 0 4px", color: "#27272a" },
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
