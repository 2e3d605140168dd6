/** The look shared by every email: page, card, type, the action button, rules and footer. Inline styles, as mail clients need. */
export const base = {
  body: {
    backgroundColor: "#f4f4f5",
    color: "#18181b",
    fontFamily: "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
    margin: 0,
    padding: "24px 0",
  },
  container: { backgroundColor: "#ffffff", borderRadius: "8px", maxWidth: "560px", margin: "0 auto", padding: "32px" },
  h1: { fontSize: "24px", lineHeight: "32px", margin: "0 0 16px", color: "#18181b" },
  /** The heading of notices whose title is a sentence (a gift renewed, a plan canceled). */
  h1Compact: { fontSize: "22px", lineHeight: "30px", margin: "0 0 16px", color: "#18181b" },
  text: { fontSize: "16px", lineHeight: "24px", margin: "0 0 16px", color: "#27272a" },
  quote: {
    fontSize: "16px",
    lineHeight: "24px",
    margin: "0 0 16px",
    padding: "0 0 0 12px",
    borderLeft: "3px solid #0f766e",
    color: "#27272a",
    fontStyle: "italic",
  },
  box: { backgroundColor: "#f4f4f5", borderRadius: "6px", padding: "16px 20px", margin: "8px 0 16px" },
  row: { fontSize: "15px", lineHeight: "22px", margin: "0 0 4px", color: "#27272a" },
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
  /** A spelled-out address: breaks anywhere, so a long link never widens the card. */
  small: { fontSize: "14px", lineHeight: "20px", margin: "0 0 16px", color: "#3f3f46", wordBreak: "break-all" },
  /** Small print in sentences (tax notes). */
  note: { fontSize: "14px", lineHeight: "20px", margin: "0 0 16px", color: "#3f3f46" },
  link: { color: "#0f766e", textDecoration: "underline" },
  h2: { fontSize: "16px", lineHeight: "24px", margin: "0 0 8px", color: "#18181b" },
} as const;
