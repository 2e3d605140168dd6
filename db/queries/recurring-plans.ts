import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, donors, recurringPlans, type RecurringPlan } from "@/db/schema";
import { offsetPage, type OffsetPage } from "./rows";

/** A plan with what the list joins to it: the campaign's title, the donor's email, its SUCCEEDED totals. */
export type RecurringPlanRow = {
  plan: RecurringPlan;
  campaignTitle: string;
  email: string | null;
  donationCount: number;
  totalCents: number;
};

/** Plans with their campaign's title and their donor's email, as the API lists them. */
const selectPlans = (db: DbOrTx) =>
  db
    .select({ plan: recurringPlans, campaignTitle: campaigns.title, email: donors.email })
    .from(recurringPlans)
    .innerJoin(campaigns, eq(campaigns.id, recurringPlans.campaignId))
    .innerJoin(donors, eq(donors.id, recurringPlans.donorId));

/** Count and sum of each plan's SUCCEEDED donations (first gift and renewals), in one grouped query. */
async function withTotals(
  db: DbOrTx,
  rows: { plan: RecurringPlan; campaignTitle: string; email: string | null }[],
): Promise<RecurringPlanRow[]> {
  if (rows.length === 0) return [];
  const totals = await db
    .select({
      planId: donations.recurringPlanId,
      donationCount: sql<number>`count(*)::int`,
      totalCents: sql<string>`coalesce(sum(${donations.amount}), 0)::text`,
    })
    .from(donations)
    .where(
      and(
        inArray(
          donations.recurringPlanId,
          rows.map((r) => r.plan.id),
        ),
        eq(donations.status, "SUCCEEDED"),
      ),
    )
    .groupBy(donations.recurringPlanId);
  const byPlan = new Map(totals.map((t) => [t.planId, t]));
  return rows.map((r) => {
    const t = byPlan.get(r.plan.id);
    return { ...r, donationCount: t ? Number(t.donationCount) : 0, totalCents: t ? Number(t.totalCents) : 0 };
  });
}

/** A page of an organization's recurring plans, newest first, optionally of one status. */
export async function listRecurringPlans(
  db: DbOrTx,
  orgId: string,
  filter: { status?: RecurringPlan["status"] },
  page: OffsetPage,
): Promise<{ rows: RecurringPlanRow[]; total: number }> {
  const conditions: SQL[] = [eq(recurringPlans.orgId, orgId)];
  if (filter.status) conditions.push(eq(recurringPlans.status, filter.status));
  const where = and(...conditions);
  const query = selectPlans(db).where(where).orderBy(desc(recurringPlans.createdAt), desc(recurringPlans.id));
  const { rows, total } = await offsetPage(db, query.$dynamic(), { table: recurringPlans, where }, page);
  return { rows: await withTotals(db, rows), total };
}

/** A donor's recurring plans, newest first. */
export async function listRecurringPlansOfDonor(db: DbOrTx, donorId: string): Promise<RecurringPlanRow[]> {
  const rows = await selectPlans(db)
    .where(eq(recurringPlans.donorId, donorId))
    .orderBy(desc(recurringPlans.createdAt), desc(recurringPlans.id));
  return withTotals(db, rows);
}

/** One plan as the API shows it, or undefined. */
export async function getRecurringPlanRow(db: DbOrTx, id: string): Promise<RecurringPlanRow | undefined> {
  const rows = await selectPlans(db).where(eq(recurringPlans.id, id)).limit(1);
  const [row] = await withTotals(db, rows);
  return row;
}

export async function findRecurringPlan(db: DbOrTx, id: string): Promise<RecurringPlan | undefined> {
  const [p] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, id)).limit(1);
  return p;
}
