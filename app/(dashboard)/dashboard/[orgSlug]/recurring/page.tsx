import type { Metadata } from "next";
import { count, eq } from "drizzle-orm";
import { formatMoney } from "@/lib/money";
import { PLAN_STATUS } from "@/components/dashboard/ops/labels";
import { Pager } from "@/components/dashboard/ops/pager";
import { PlansTable } from "@/components/dashboard/ops/plans-table";
import { PageHeader, Stat } from "@/components/ui/card";
import { EmptyList, StatusTabs } from "@/components/dashboard/ops/list-page";
import { getDb } from "@/db";
import { listRecurringPlans } from "@/db/queries/recurring-plans";
import { getRecurringReport } from "@/db/queries/recurring-report";
import { getReportSummary } from "@/db/queries/reports";
import { recurringPlans } from "@/db/schema";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { RECURRING_PLAN_LIST_DEFAULT_LIMIT, RECURRING_PLAN_STATUSES, serializeRecurringPlan } from "@/lib/schemas/recurring-plans";
import { oneOf, pageFrom, pageHref, statusCounts } from "@/components/dashboard/ops/paging";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Recurring" };

type Status = (typeof RECURRING_PLAN_STATUSES)[number];
const TAB_ORDER: Status[] = ["ACTIVE", "PAST_DUE", "INCOMPLETE", "CANCELED"];

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/:orgSlug/recurring: weekly, monthly, quarterly and yearly plans by status; admins cancel a plan.
export default async function RecurringPage({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const sp = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/recurring`);
  const db = await getDb();
  const status = oneOf(RECURRING_PLAN_STATUSES, sp.status);
  const page = pageFrom(sp.page);
  const limit = RECURRING_PLAN_LIST_DEFAULT_LIMIT;

  const [{ rows, total }, byStatus, summary] = await Promise.all([
    listRecurringPlans(db, org.id, { status: status ?? undefined }, { page, limit }),
    db
      .select({ status: recurringPlans.status, n: count() })
      .from(recurringPlans)
      .where(eq(recurringPlans.orgId, org.id))
      .groupBy(recurringPlans.status),
    getReportSummary(db, org.id, { from: null, to: null }),
  ]);
  const kept = await getRecurringReport(db, org.id, { from: null, to: null });
  const { counts, all } = statusCounts(byStatus);
  const base = `/dashboard/${org.slug}/recurring`;
  const href = pageHref(base, status ? { status } : {});
  const canCancel = roleSatisfies(role, "ADMIN");

  return (
    <>
      <PageHeader
        title="Recurring"
        description="Weekly, monthly, quarterly and yearly gifts. Each plan is one subscription at the payment processor: its first gift and every renewal. A past-due plan's renewal was declined; the processor retries it on the date shown."
      />
      {all > 0 ? (
        <div className="stats">
          <Stat label="Active plans" value={(counts.ACTIVE ?? 0).toLocaleString("en-US")} />
          <Stat
            label="Monthly value"
            value={formatMoney(summary.recurringMonthlyValueCents, org.currency, { short: true })}
            hint="Active plans now, per month"
          />
          <Stat label="Past due" value={(counts.PAST_DUE ?? 0).toLocaleString("en-US")} hint="A renewal was declined; retrying" />
          <Stat
            label="Recovered"
            value={formatMoney(kept.recoveredCents, org.currency, { short: true })}
            hint={`Renewals paid after a decline; ${formatMoney(kept.lostCents, org.currency, { short: true })} lost`}
          />
          <Stat
            label="Monthly upsell"
            value={`${kept.upsellAccepted.toLocaleString("en-US")} of ${kept.upsellOffered.toLocaleString("en-US")}`}
            hint={`Offers taken; reminders: ${kept.abandonedRecovered.toLocaleString("en-US")} of ${kept.abandonedReminded.toLocaleString("en-US")} finished`}
          />
        </div>
      ) : null}
      <StatusTabs base={base} all={all} statuses={TAB_ORDER} current={status} label={(s) => PLAN_STATUS[s].label} counts={counts} />
      {all === 0 ? (
        <EmptyList
          title="No recurring gifts yet"
          icon="↻"
          href={`/dashboard/${org.slug}/campaigns`}
          linkLabel="Check your campaigns"
          primary
        >
          Donors can choose to give every week, month, quarter or year on any campaign that allows recurring gifts (the default). Their
          plans show up here.
        </EmptyList>
      ) : rows.length === 0 ? (
        <EmptyList
          title={status ? `No ${PLAN_STATUS[status].label.toLowerCase()} plans` : "This page is empty"}
          icon="∅"
          href={base}
          linkLabel="Show all plans"
        />
      ) : (
        <>
          <PlansTable
            rows={rows.map(serializeRecurringPlan)}
            orgSlug={org.slug}
            canCancel={canCancel}
            label={status ? `${PLAN_STATUS[status].label} recurring plans` : "Recurring plans"}
          />
          <Pager page={page} limit={limit} total={total} href={href} noun="plans" />
          {!canCancel ? <p className="small muted">Admins and owners can cancel a plan.</p> : null}
        </>
      )}
    </>
  );
}
