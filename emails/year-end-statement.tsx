import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Text } from "@react-email/components";
import type { YearEndStatementProps } from "@/lib/email/types";
import { TestModeNote, type TestModeProps } from "./_components/test-mode-note";
import { base } from "./_components/styles";

export type { YearEndStatementProps };

const greetingName = (p: YearEndStatementProps) => p.donorFirstName?.trim() || p.donorName?.trim() || null;

export const subject = (p: YearEndStatementProps): string => `Your ${p.year} giving statement from ${p.orgName}`;

/**
 * The year-end statement's cover note. The statement itself (every counted gift of the year,
 * the total, the organization's tax details) is the attached PDF, rendered when the email is
 * sent; the account page offers the same file for download.
 */
export default function YearEndStatement(props: YearEndStatementProps & TestModeProps) {
  const name = greetingName(props);
  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Preview>{`Your ${props.year} giving statement from ${props.orgName} is attached`}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <TestModeNote testMode={props.testMode} />
          <Heading as="h1" style={styles.h1}>
            {name ? `${name}, here is your ${props.year} giving statement` : `Your ${props.year} giving statement`}
          </Heading>
          <Text style={styles.text}>
            {`Thank you for supporting ${props.orgName} in ${props.year}. Attached is a PDF statement of every gift you made that year, with the total, for your tax records.`}
          </Text>
          <Text style={styles.text}>
            {"You can download it again at any time from "}
            <Link href={props.accountUrl} style={styles.link}>
              your donor account
            </Link>
            {"."}
          </Text>
          <Hr style={styles.hr} />
          <Text style={styles.footer}>{`Sent on behalf of ${props.orgName} by Goodfund.`}</Text>
        </Container>
      </Body>
    </Html>
  );
}

YearEndStatement.PreviewProps = {
  orgName: "Riverside Water Trust",
  donorFirstName: "Maya",
  donorName: "Maya Okafor",
  year: 2025,
  accountUrl: "http://localhost:3000/o/riverside/account",
  statement: { orgId: "org_preview", donorId: "dnr_preview", year: 2025 },
} satisfies YearEndStatementProps;

const styles = {
  ...base,
} as const;
