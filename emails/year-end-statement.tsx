import { Link, Text } from "@react-email/components";
import type { YearEndStatementProps } from "@/lib/email/types";
import { emailIntl, greetingName } from "./_components/i18n";
import { EmailLayout } from "./_components/layout";
import { base as styles } from "./_components/styles";
import type { TestModeProps } from "./_components/test-mode-note";

export type { YearEndStatementProps };

// The year as written ("2025"), never as a grouped number ("2,025").
export const subject = (p: YearEndStatementProps): string =>
  emailIntl(p.locale).t("statement.subject", { year: String(p.year), org: p.orgName });

/**
 * The year-end statement's cover note. The statement itself (every counted gift of the year,
 * the total, the organization's tax details) is the attached PDF, rendered when the email is
 * sent; the account page offers the same file for download.
 */
export default function YearEndStatement(props: YearEndStatementProps & TestModeProps) {
  const { t } = emailIntl(props.locale);
  const name = greetingName(props);
  const year = String(props.year);
  const org = props.orgName;
  return (
    <EmailLayout
      locale={props.locale}
      testMode={props.testMode}
      preview={t("statement.preview", { year, org })}
      heading={name ? t("statement.headingName", { name, year }) : t("statement.heading", { year })}
      footer={t("statement.footer", { org })}
    >
      <Text style={styles.text}>{t("statement.body", { org, year })}</Text>
      <Text style={styles.text}>
        {t.rich("statement.download", {
          link: (chunks) => (
            <Link href={props.accountUrl} style={styles.link}>
              {chunks}
            </Link>
          ),
        })}
      </Text>
    </EmailLayout>
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
