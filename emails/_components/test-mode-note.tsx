import { Text } from "@react-email/components";
import type { Locale } from "@/lib/i18n/locales";
import { emailIntl } from "./i18n";

/** Given by renderEmail in sandbox payments mode, where nothing real is charged. */
export type TestModeProps = { testMode?: boolean };

/** The first line of every email of a sandbox install, so nobody takes it for a real receipt or alert. */
export function TestModeNote({ testMode, locale }: TestModeProps & { locale?: Locale }) {
  if (!testMode) return null;
  return <Text style={style}>{emailIntl(locale).t("common.testModeNote")}</Text>;
}

const style = {
  backgroundColor: "#fff4d6",
  border: "1px solid #f0dca0",
  borderRadius: "6px",
  color: "#6b4600",
  fontSize: "14px",
  fontWeight: 600,
  lineHeight: "20px",
  margin: "0 0 20px",
  padding: "8px 12px",
} as const;
