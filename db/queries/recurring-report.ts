import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import type { ReportWindow } from "@/lib/report-window";
import { roundedQuotient, yearlyRecurringSql } from "./reports";

export type RecurringReportNumbers = {
  activePlans: number;
  pastDuePlans: number;
  monthlyRecurringCents: number;
  recoveredCents: number;
  lostCents: number;
  upsellOffered: number;
  upsellAccepted: number;
  abandonedReminded: number;
  abandonedRecovered: number;
};

const num = (v: unknown) => Number(v ?? 0);

function within(col: SQL, w: ReportWindow): SQL {
  const parts: SQL[] = [];
  if (w.from !== null) parts.push(sql`${col} >= ${w.from}::timestamptz`);
  if (w.to !== null) parts.push(sql`${col} < ${w.to}::timestamptz`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/**
 * The recurring report of an organization (GET …/reports/recurring): plans ACTIVE and PAST_DUE
 * now and their monthly recurring value (not windowed); in the window, the renewals recovered
 * after a failure (their SUCCEEDED donations' amounts, by recovery time), the invoices lost when
 * the processor gave up (amounts due, by that time), the monthly upsells offered and accepted
 * (by the gift's creation) and the unfinished-gift reminders sent and followed by a completed gift
 * of the same donor to the same campaign (by the reminder's time).
 */
export async function getRecurringReport(db: DbOrTx, orgId: string, w: ReportWindow): Promise<RecurringReportNumbers> {
  const rows = await db.execute(sql`
    select
      (select count(*) from recurring_plans where org_id = ${orgId} and status = 'ACTIVE') as active_plans,
      (select count(*) from recurring_plans where org_id = ${orgId} and status = 'PAST_DUE') as past_due_plans,
      (select ${yearlyRecurringSql} from recurring_plans where org_id = ${orgId} and status = 'ACTIVE') as yearly_cents,
      (select coalesce(sum(d.amount), 0) from plan_invoice_failures f
         join donations d on d.invoice_id = f.invoice_id and d.status = 'SUCCEEDED'
         where f.org_id = ${orgId} and f.recovered_at is not null and ${within(sql`f.recovered_at`, w)}) as recovered_cents,
      (select coalesce(sum(f.amount_due_cents), 0) from plan_invoice_failures f
         where f.org_id = ${orgId} and f.lost_at is not null and ${within(sql`f.lost_at`, w)}) as lost_cents,
      (select count(*) from donations where org_id = ${orgId} and upsell is not null and ${within(sql`created_at`, w)}) as upsell_offered,
      (select count(*) from donations where org_id = ${orgId} and upsell = 'ACCEPTED' and ${within(sql`created_at`, w)}) as upsell_accepted,
      (select count(*) from donations where org_id = ${orgId} and unfinished_reminder_at is not null
         and ${within(sql`unfinished_reminder_at`, w)}) as abandoned_reminded,
      (select count(*) from donations r where r.org_id = ${orgId} and r.unfinished_reminder_at is not null
         and ${within(sql`r.unfinished_reminder_at`, w)}
         and exists (select 1 from donations g where g.donor_id = r.donor_id and g.campaign_id = r.campaign_id
           and g.status in ('SUCCEEDED', 'DISPUTED', 'REFUNDED')
           and (g.id = r.id or g.created_at >= r.unfinished_reminder_at))) as abandoned_recovered`);
  const r = (Array.isArray(rows) ? rows[0] : (rows as { rows: Record<string, unknown>[] }).rows[0]) as Record<string, unknown>;
  return {
    activePlans: num(r.active_plans),
    pastDuePlans: num(r.past_due_plans),
    monthlyRecurringCents: roundedQuotient(num(r.yearly_cents), 12),
    recoveredCents: num(r.recovered_cents),
    lostCents: num(r.lost_cents),
    upsellOffered: num(r.upsell_offered),
    upsellAccepted: num(r.upsell_accepted),
    abandonedReminded: num(r.abandoned_reminded),
    abandonedRecovered: num(r.abandoned_recovered),
  };
}
