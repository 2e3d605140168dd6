import type { CSSProperties, ReactNode } from "react";
import { Heading, Section, Text } from "@react-email/components";
import type { Locale } from "@/lib/i18n/locales";
import { emailIntl } from "./i18n";
import { base } from "./styles";

/** One line of a summary: "Label: value", a sub-heading, or a plain line. */
export type SummaryRow = readonly [label: string, value: ReactNode] | { heading: string } | { note: ReactNode };

/** The organization's view of who gave: "Donor: name" (or "Not given") and "Email: address". English, as staff emails are. */
export const donorContactRows = (name: string | null, email: string | null): SummaryRow[] => [
  ["Donor", name?.trim() || "Not given"],
  ["Email", email || "Not given"],
];

/**
 * The shaded box that sums up a gift, refund, plan or request, one labelled line each ("Amount:
 * $50.00"); rows given as `false` or `null` are left out. Labels take the language's punctuation
 * ("Montant :" in French).
 */
export function GiftSummary({ rows, locale, style }: { rows: (SummaryRow | false | null)[]; locale?: Locale; style?: CSSProperties }) {
  const { t } = emailIntl(locale);
  const shown = rows.filter((row): row is SummaryRow => Boolean(row));
  return (
    <Section style={style ?? base.box}>
      {shown.map((row, i) => {
        if ("heading" in row)
          return (
            <Heading key={i} as="h2" style={i === 0 ? base.h2 : { ...base.h2, marginTop: "16px" }}>
              {row.heading}
            </Heading>
          );
        if ("note" in row)
          return (
            <Text key={i} style={base.row}>
              {row.note}
            </Text>
          );
        const [label, value] = row;
        return (
          <Text key={i} style={base.row}>
            <strong>{t("common.label", { label })}</strong> {value}
          </Text>
        );
      })}
    </Section>
  );
}
