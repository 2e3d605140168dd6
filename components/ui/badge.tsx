import type { ReactNode } from "react";

const TONES: Record<string, string> = {
  ACTIVE: "active",
  DRAFT: "draft",
  PAUSED: "paused",
  ENDED: "ended",
  ONBOARDING: "pending",
};

const LABELS: Record<string, string> = {
  ACTIVE: "Active",
  DRAFT: "Draft",
  PAUSED: "Paused",
  ENDED: "Ended",
  ONBOARDING: "Onboarding",
};

/** Campaign or organization status as a coloured pill; the text carries the meaning, not the colour. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${TONES[status] ?? ""}`}>{LABELS[status] ?? status}</span>;
}

export function Badge({
  tone,
  children,
  plain,
}: {
  tone?: "ok" | "pending" | "danger" | "role" | "draft";
  children: ReactNode;
  plain?: boolean;
}) {
  return <span className={["badge", tone, plain ? "plain" : ""].filter(Boolean).join(" ")}>{children}</span>;
}
