import { Text } from "@react-email/components";

/** Given by renderEmail in sandbox payments mode, where nothing real is charged. */
export type TestModeProps = { testMode?: boolean };

/** The first line of every email of a sandbox install, so nobody takes it for a real receipt or alert. */
export function TestModeNote({ testMode }: TestModeProps) {
  if (!testMode) return null;
  return <Text style={style}>Test mode: no real payment was taken. This email comes from a Goodfund install in sandbox mode.</Text>;
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
