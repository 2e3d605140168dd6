import Link from "next/link";
import { Card } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import type { Repair } from "@/lib/schemas/reconcile";

/** What each processor event that was missed and then applied meant, in the dashboard's words. */
const EVENT_LABEL: Record<string, string> = {
  "payment_intent.succeeded": "Payment succeeded",
  "payment_intent.payment_failed": "Payment declined",
  "payment_intent.canceled": "Payment canceled",
  "invoice.payment_succeeded": "Recurring payment received",
  "charge.refunded": "Refund",
  "charge.dispute.created": "Dispute opened",
  "charge.dispute.closed": "Dispute closed",
  "customer.subscription.deleted": "Recurring plan ended",
  "account.updated": "Payout account updated",
  "payout.paid": "Payout paid",
  "payout.failed": "Payout failed",
};

const STATUS_LABEL: Record<string, string> = {
  PENDING: "pending",
  SUCCEEDED: "succeeded",
  FAILED: "failed",
  REFUNDED: "refunded",
  DISPUTED: "disputed",
};

/** `PENDING → SUCCEEDED` → `pending → succeeded`; anything else as is. */
function changeText(change: string): string {
  return change.replace(/[A-Z]{4,}/g, (s) => STATUS_LABEL[s] ?? s.toLowerCase());
}

/**
 * The last reconciliation with the payment processor, and what recent runs put right for this
 * organization: updates the processor sent that never arrived, and payments settled from the
 * processor's own record.
 */
export function ProcessorSyncCard({
  orgSlug,
  lastRun,
  repairs,
}: {
  orgSlug: string;
  lastRun: { finishedAt: Date | null; error: string | null } | null;
  repairs: Repair[];
}) {
  return (
    <Card
      id="processor-sync"
      title="Sync with the payment processor"
      description={
        lastRun?.finishedAt ? (
          <>
            Last checked <LocalTime iso={lastRun.finishedAt.toISOString()} />
            {lastRun.error ? ": the check did not finish and will run again." : "."}
          </>
        ) : (
          "Not checked yet. Goodfund compares its records with the payment processor every 15 minutes."
        )
      }
    >
      {repairs.length === 0 ? (
        <p className="small muted">Nothing needed fixing: every payment update reached Goodfund.</p>
      ) : (
        <>
          <p className="small">
            {repairs.length === 1 ? "One update" : `${repairs.length} updates`} that never arrived from the processor{" "}
            {repairs.length === 1 ? "was" : "were"} recovered:
          </p>
          <ul className="small" style={{ margin: 0, paddingLeft: "1.2em" }}>
            {repairs.map((r) => (
              <li key={`${r.kind}:${r.eventId ?? r.paymentIntentId}:${r.donationId ?? ""}`}>
                <LocalTime iso={r.at} />: {EVENT_LABEL[r.eventType] ?? r.eventType}
                {r.donationId ? (
                  <>
                    {" "}
                    for{" "}
                    <Link href={`/dashboard/${orgSlug}/donations/${r.donationId}`} prefetch={false}>
                      a donation
                    </Link>
                  </>
                ) : null}
                {r.change.includes("→") ? ` (${changeText(r.change)})` : null}
                {r.kind === "payment" ? ", confirmed with the processor" : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
