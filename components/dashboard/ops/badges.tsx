import { Badge } from "@/components/ui/badge";
import { DONATION_STATUS, PLAN_STATUS, giftKind } from "./labels";

/** A donation's status as a pill; the word carries the meaning, the colour only repeats it. */
export function DonationStatusBadge({ status }: { status: string }) {
  const s = DONATION_STATUS[status] ?? { label: status, tone: "draft" as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

export function PlanStatusBadge({ status }: { status: string }) {
  const s = PLAN_STATUS[status] ?? { label: status, tone: "draft" as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** "Monthly renewal" / "Yearly, first gift" marker; nothing for a one-time gift. */
export function GiftKindMarker({ recurringInterval, isRenewal }: { recurringInterval: string | null; isRenewal: boolean }) {
  const kind = giftKind({ recurringInterval, isRenewal });
  if (!kind.recurring) return <span className="muted small">One-time</span>;
  return (
    <Badge tone="role" plain>
      <span aria-hidden="true">↻ </span>
      {kind.label}
    </Badge>
  );
}
