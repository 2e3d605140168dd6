import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { DonorErasureRequestProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

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
  ...base,
} as const;
