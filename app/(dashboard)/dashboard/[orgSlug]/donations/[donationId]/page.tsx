import type { Metadata } from "next";
import { isErasedEmail } from "@/lib/donor-erasure";
import Link from "next/link";
import { eq } from "drizzle-orm";
import { formatMoney } from "@/lib/money";
import { DonationStatusBadge, GiftKindMarker } from "@/components/dashboard/ops/badges";
import {
  donorEmailLabel,
  donorEmailLine,
  donorName,
  emailStatus,
  EVERY_INTERVAL,
  eventLabel,
  statusChange,
  templateLabel,
  methodLabel,
  type BadgeTone,
} from "@/components/dashboard/ops/labels";
import styles from "@/components/dashboard/ops/ops.module.css";
import { OfflineGiftActions } from "@/components/dashboard/ops/offline-gift-actions";
import { RefundPanel } from "@/components/dashboard/ops/refund-panel";
import { Badge } from "@/components/ui/badge";
import { Card, PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { listCampaigns } from "@/db/queries/campaigns";
import { getDonationTimeline, type TimelineRow } from "@/db/queries/donations";
import { deductibleCents, receiptStatusOf } from "@/lib/schemas/donations";
import { recurringPlans } from "@/db/schema";
import { roleSatisfies } from "@/lib/roles";
import { getEnv } from "@/lib/env";
import { loadDonation } from "../../records";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string; donationId: string }> };

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { donation } = await loadDonation(props);
  return { title: `Donation ${formatMoney(donation.amount, donation.currency, { short: true })}` };
}

const EVENT_TONE: Record<string, BadgeTone | "mail"> = {
  "payment_intent.succeeded": "ok",
  "invoice.payment_succeeded": "ok",
  "payment_intent.payment_failed": "danger",
  "donation.abandoned": "danger",
  "charge.dispute.created": "danger",
  "charge.refunded": "pending",
  "refund.requested": "pending",
  "refund.created": "pending",
};

function TimelineItem({ entry, delivering, emailHref }: { entry: TimelineRow; delivering: boolean; emailHref: (id: number) => string }) {
  if (entry.kind === "email") {
    const s = emailStatus(entry.status, delivering);
    return (
      <li>
        <span className={styles.dot} data-tone="mail" aria-hidden="true" />
        <p className={styles.eventTitle}>
          <Link href={emailHref(entry.seq)}>{templateLabel(entry.template)}</Link> email to {donorEmailLabel(entry.recipient)}
        </p>
        <p className={styles.eventMeta}>
          <LocalTime iso={entry.at.toISOString()} />
          <Badge tone={s.tone}>{s.label}</Badge>
          {entry.attempts > 1 ? <span>{entry.attempts} attempts</span> : null}
          {entry.sentAt && delivering ? (
            <span>
              sent <LocalTime iso={entry.sentAt.toISOString()} />
            </span>
          ) : null}
        </p>
      </li>
    );
  }
  const change = statusChange(entry.data);
  const details: string[] = [];
  if (typeof entry.data.reason === "string") details.push(`Reason: ${entry.data.reason.replace(/_/g, " ")}`);
  if (typeof entry.data.refundId === "string") details.push(`Refund ${entry.data.refundId}`);
  if (typeof entry.data.failureReason === "string") details.push(entry.data.failureReason);
  return (
    <li>
      <span className={styles.dot} data-tone={EVENT_TONE[entry.type] ?? ""} aria-hidden="true" />
      <p className={styles.eventTitle}>{eventLabel(entry.type, entry.data)}</p>
      <p className={styles.eventMeta}>
        <LocalTime iso={entry.at.toISOString()} />
        {change ? <span>{change}</span> : null}
        {details.map((d) => (
          <span key={d}>{d}</span>
        ))}
        {entry.processorEventId ? (
          <span className={styles.mono}>
            <span className="sr-only">Processor event </span>
            {entry.processorEventId}
          </span>
        ) : null}
      </p>
    </li>
  );
}

const yesNo = (b: boolean) => (b ? "Yes" : "No");

// GET /dashboard/:orgSlug/donations/:id: every field of one donation, its timeline (events and
// emails) and, for admins, a refund.
export default async function DonationPage(props: Props) {
  const { org, role, db, donation: d, campaignTitle } = await loadDonation(props);
  const timeline = await getDonationTimeline(db, d.id);
  const [plan] = d.recurringPlanId
    ? await db.select({ status: recurringPlans.status }).from(recurringPlans).where(eq(recurringPlans.id, d.recurringPlanId)).limit(1)
    : [];
  const base = `/dashboard/${org.slug}`;
  const money = (cents: number) => formatMoney(cents, d.currency, { short: true });
  const name = donorName(d);
  const delivering = Boolean(getEnv().RESEND_API_KEY);
  const dedication = d.dedication;
  const staffRecorded = d.source !== "ONLINE";
  const canCorrect = staffRecorded && d.status === "SUCCEEDED" && roleSatisfies(role, "ADMIN");
  const campaignOptions = canCorrect ? (await listCampaigns(db, org.id, {})).rows.map((c) => ({ value: c.id, label: c.title })) : [];
  const receiptStatus = receiptStatusOf(d);

  return (
    <>
      <PageHeader
        eyebrow={<Link href={`${base}/donations`}>Donations</Link>}
        title={`Donation ${money(d.amount)}`}
        description={
          <span className={styles.headerMeta}>
            <DonationStatusBadge status={d.status} />
            <GiftKindMarker recurringInterval={d.recurringInterval} isRenewal={d.isRenewal} />
            <span>
              from <Link href={`${base}/donors/${encodeURIComponent(d.donorId)}`}>{name}</Link> to{" "}
              <Link href={`${base}/campaigns/${encodeURIComponent(d.campaignId)}`}>{campaignTitle}</Link>
            </span>
          </span>
        }
      />
      <div className={styles.detail}>
        <div className={styles.main}>
          {d.status === "FAILED" && d.failureReason ? (
            <Notice tone="error" title="Payment failed">
              <p>{d.failureReason}</p>
            </Notice>
          ) : null}
          {d.status === "PENDING" && d.failureReason ? (
            <Notice tone="warn" title="Payment attempt declined">
              <p>
                {d.failureReason} The donor can still pay with another card
                {d.tickets ? "; the tickets stay reserved until the payment succeeds or the hold expires." : "."}
              </p>
            </Notice>
          ) : null}
          {d.status === "DISPUTED" ? (
            <Notice tone="warn" title="Disputed by the card holder">
              <p>
                {d.disputeReason ? `Reason: ${d.disputeReason.replace(/_/g, " ")}. ` : ""}Respond with evidence in your payment
                processor&apos;s dashboard before the deadline.
              </p>
            </Notice>
          ) : null}
          <Card title="Details" id="details">
            <dl className="kv" style={{ marginTop: 12 }}>
              <dt>Amount</dt>
              <dd>
                <strong>{money(d.amount)}</strong> {d.currency.toUpperCase()}
              </dd>
              <dt>Fees covered</dt>
              <dd>{d.coverFees ? `Yes, ${money(d.feeCents)} (charged ${money(d.amount + d.feeCents)})` : "No"}</dd>
              {d.matchedAmountCents > 0 ? (
                <>
                  <dt>Matched</dt>
                  <dd>{money(d.matchedAmountCents)}</dd>
                </>
              ) : null}
              <dt>Status</dt>
              <dd>
                <DonationStatusBadge status={d.status} />
                {d.voidReason ? <span className="muted"> · {d.voidReason}</span> : null}
              </dd>
              <dt>Source</dt>
              <dd>{d.source === "ONLINE" ? "Online (donate form)" : d.source === "OFFLINE" ? "Recorded by staff" : "Imported"}</dd>
              <dt>Method</dt>
              <dd>
                {methodLabel(d.method)}
                {d.reference ? <span className="muted"> · {d.reference}</span> : null}
              </dd>
              <dt>Receipt</dt>
              <dd>
                {d.receiptNumber ? (
                  <>
                    <a href={`/api/donations/${encodeURIComponent(d.id)}/receipt.pdf`}>
                      {d.receiptNumber}
                      <span className="sr-only"> (PDF)</span>
                    </a>
                    {receiptStatus === "VOID" ? <span className="muted"> · void</span> : null}
                  </>
                ) : (
                  <span className="muted">{d.source === "IMPORT" ? "Receipted elsewhere" : "Not issued"}</span>
                )}
              </dd>
              {d.advantageCents > 0 ? (
                <>
                  <dt>Value received</dt>
                  <dd>
                    {money(d.advantageCents)} <span className="muted">· deductible {money(deductibleCents(d))}</span>
                  </dd>
                </>
              ) : null}
              <dt>Donor</dt>
              <dd>
                <Link href={`${base}/donors/${encodeURIComponent(d.donorId)}`}>{name}</Link>
                {donorEmailLine(d) ? <span className="muted"> · {donorEmailLine(d)}</span> : null}
              </dd>
              <dt>Anonymous</dt>
              <dd>{d.anonymous ? "Yes: shown as “Anonymous” on public pages" : "No"}</dd>
              <dt>Campaign</dt>
              <dd>
                <Link href={`${base}/campaigns/${encodeURIComponent(d.campaignId)}`}>{campaignTitle}</Link>
              </dd>
              <dt>Message</dt>
              <dd>{d.message ? <q>{d.message}</q> : <span className="muted">None</span>}</dd>
              <dt>Dedication</dt>
              <dd>
                {dedication ? (
                  <>
                    {dedication.type === "IN_MEMORY" ? "In memory of" : "In honor of"} <strong>{dedication.honoreeName}</strong>
                    {dedication.notifyEmail ? <span className="muted"> · notify {dedication.notifyEmail}</span> : null}
                    {dedication.message ? (
                      <>
                        <br />
                        <q>{dedication.message}</q>
                      </>
                    ) : null}
                  </>
                ) : (
                  <span className="muted">None</span>
                )}
              </dd>
              <dt>Recurring</dt>
              <dd>
                {d.recurringInterval ? (
                  <>
                    {EVERY_INTERVAL[d.recurringInterval]}
                    {d.isRenewal ? " (a renewal)" : " (first gift)"}
                    {d.recurringPlanId ? (
                      <>
                        {" · "}
                        <Link href={`${base}/recurring`}>plan</Link>
                        {plan ? ` ${plan.status.toLowerCase().replace("_", " ")}` : ""}
                      </>
                    ) : null}
                  </>
                ) : (
                  "No, one-time"
                )}
              </dd>
              {d.tickets !== null ? (
                <>
                  <dt>Tickets</dt>
                  <dd>{d.tickets}</dd>
                </>
              ) : null}
              {d.failureReason ? (
                <>
                  <dt>Failure reason</dt>
                  <dd>{d.failureReason}</dd>
                </>
              ) : null}
              {d.disputeReason ? (
                <>
                  <dt>Dispute reason</dt>
                  <dd>{d.disputeReason.replace(/_/g, " ")}</dd>
                </>
              ) : null}
              <dt>Created</dt>
              <dd>
                <LocalTime iso={d.createdAt.toISOString()} />
              </dd>
              <dt>Succeeded</dt>
              <dd>{d.succeededAt ? <LocalTime iso={d.succeededAt.toISOString()} /> : <span className="muted">Not yet</span>}</dd>
              <dt>Last updated</dt>
              <dd>
                <LocalTime iso={d.updatedAt.toISOString()} />
              </dd>
              <dt>Donation ID</dt>
              <dd className={styles.mono}>{d.id}</dd>
              <dt>Payment</dt>
              <dd className={styles.mono}>{d.paymentIntentId ?? "—"}</dd>
              {d.subscriptionId ? (
                <>
                  <dt>Subscription</dt>
                  <dd className={styles.mono}>{d.subscriptionId}</dd>
                </>
              ) : null}
              <dt>Renewal</dt>
              <dd>{yesNo(d.isRenewal)}</dd>
            </dl>
          </Card>
          <Card title="Timeline" id="timeline" description="What happened to this donation, oldest first, with the emails it sent.">
            {timeline.length === 0 ? (
              <p className="muted" style={{ margin: 0 }}>
                Nothing recorded yet.
              </p>
            ) : (
              <ol className={styles.timeline}>
                {timeline.map((e) => (
                  <TimelineItem key={`${e.kind}-${e.seq}`} entry={e} delivering={delivering} emailHref={(id) => `${base}/emails/${id}`} />
                ))}
              </ol>
            )}
          </Card>
        </div>
        <aside className={styles.aside} aria-label="Actions">
          {staffRecorded ? (
            <Card title="Correct or void" id="correct">
              {canCorrect ? (
                <OfflineGiftActions
                  gift={{
                    id: d.id,
                    amount: d.amount,
                    advantageCents: d.advantageCents,
                    currency: d.currency,
                    receivedOn: (d.succeededAt ?? d.createdAt).toISOString().slice(0, 10),
                    method: d.method,
                    reference: d.reference,
                    campaignId: d.campaignId,
                  }}
                  campaigns={campaignOptions}
                  amountLabel={money(d.amount)}
                />
              ) : (
                <p className="small muted" style={{ margin: 0 }}>
                  {d.status === "VOIDED"
                    ? "This gift was voided: it no longer counts anywhere."
                    : "Admins and owners of this organization can correct or void a gift recorded by staff."}
                </p>
              )}
            </Card>
          ) : (
            <Card title="Refund" id="refund">
              <RefundPanel
                donationId={d.id}
                status={d.status}
                amountLabel={money(d.amount)}
                chargeLabel={d.coverFees && d.feeCents > 0 ? money(d.amount + d.feeCents) : null}
                canRefund={roleSatisfies(role, "ADMIN")}
              />
            </Card>
          )}
          <Card title="Donor" id="donor">
            <p style={{ margin: "0 0 4px", fontWeight: 600 }}>{name}</p>
            <p className="small" style={{ margin: "0 0 12px", overflowWrap: "anywhere" }}>
              {isErasedEmail(d.email) ? (
                <span className="muted">Their personal data was erased; this donation is kept without it.</span>
              ) : d.email ? (
                <a href={`mailto:${d.email}`}>{d.email}</a>
              ) : (
                <span className="muted">No email on file.</span>
              )}
            </p>
            <Link className="button secondary small" href={`${base}/donors/${encodeURIComponent(d.donorId)}`}>
              Donor profile and history
            </Link>
          </Card>
        </aside>
      </div>
    </>
  );
}
