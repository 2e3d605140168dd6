import Link from "next/link";
import { formatMoney } from "@/lib/money";
import { LocalTime } from "@/components/ui/local-time";
import type { PlanCanceledBy, RecurringPlanView } from "@/lib/schemas/recurring-plans";
import { PlanStatusBadge } from "./badges";
import { CancelPlanButton } from "./cancel-plan-button";
import { donorEmailLabel, PER_INTERVAL } from "./labels";
import { OpsTable } from "./ops-table";
import { TableHead, num } from "@/components/ui/table";

/** Who ended a plan, as the status column says it. */
const CANCELED_BY: Record<PlanCanceledBy, string> = {
  donor: "Canceled by donor",
  staff: "Canceled by staff",
  processor: "Canceled by processor",
};

/** Recurring plans with their SUCCEEDED totals; admins get "Cancel plan" on plans still running. */
export function PlansTable({
  rows,
  orgSlug,
  canCancel,
  showDonor = true,
  label = "Recurring plans",
}: {
  rows: RecurringPlanView[];
  orgSlug: string;
  canCancel: boolean;
  showDonor?: boolean;
  label?: string;
}) {
  const base = `/dashboard/${orgSlug}`;
  return (
    <OpsTable label={label}>
      <caption className="sr-only">{label}, newest first</caption>
      <TableHead columns={[showDonor && "Donor", num("Amount"), "Status", "Campaign", "Started", num("Paid so far")]} actions={canCancel} />
      <tbody>
        {rows.map((p) => {
          const amount = `${formatMoney(p.amount, p.currency, { short: true })} ${PER_INTERVAL[p.interval] ?? ""}`;
          const cancelable = p.status !== "CANCELED" && p.subscriptionId !== null;
          return (
            <tr key={p.id}>
              {showDonor ? (
                <td className="title-cell break">
                  <Link href={`${base}/donors/${encodeURIComponent(p.donorId)}`}>{donorEmailLabel(p.email)}</Link>
                </td>
              ) : null}
              <td className="num">{amount}</td>
              <td>
                <PlanStatusBadge status={p.status} />
                {p.status === "CANCELED" && p.canceledBy ? <span className="sub">{CANCELED_BY[p.canceledBy]}</span> : null}
                {p.status === "PAST_DUE" ? (
                  <span className="sub">
                    {p.nextRetryAt ? (
                      <>
                        Next retry <LocalTime iso={p.nextRetryAt} dateOnly />
                      </>
                    ) : (
                      "No retry scheduled"
                    )}
                  </span>
                ) : null}
                {p.canceledAt ? (
                  <span className="sub">
                    <LocalTime iso={p.canceledAt} dateOnly />
                  </span>
                ) : null}
              </td>
              <td style={{ minWidth: 120 }}>
                <Link href={`${base}/campaigns/${encodeURIComponent(p.campaignId)}`}>{p.campaignTitle}</Link>
              </td>
              <td className="nowrap">
                <LocalTime iso={p.createdAt} dateOnly />
              </td>
              <td className="num">
                {formatMoney(p.totalCents, p.currency, { short: true })}
                <span className="sub">
                  {p.donationCount} payment{p.donationCount === 1 ? "" : "s"}
                </span>
              </td>
              {canCancel ? (
                <td>
                  {cancelable ? (
                    <CancelPlanButton planId={p.id} describe={`${amount} from ${donorEmailLabel(p.email)}`} />
                  ) : p.status === "CANCELED" ? null : (
                    <span className="small muted">Not started</span>
                  )}
                </td>
              ) : null}
            </tr>
          );
        })}
      </tbody>
    </OpsTable>
  );
}
