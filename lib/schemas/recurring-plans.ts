import { z } from "zod";
import type { RecurringPlan } from "@/db/schema";
import { iso, pageQuery } from "./common";
import { RECURRING_INTERVALS } from "./donations";

export const RECURRING_PLAN_STATUSES = ["INCOMPLETE", "ACTIVE", "PAST_DUE", "CANCELED"] as const;

export const RECURRING_PLAN_LIST_DEFAULT_LIMIT = 25;

export const listRecurringPlansQuery = z.object({
  ...pageQuery,
  status: z.enum(RECURRING_PLAN_STATUSES).optional(),
});

export const recurringPlanSchema = z
  .object({
    id: z.string(),
    orgId: z.string(),
    campaignId: z.string(),
    campaignTitle: z.string(),
    donorId: z.string(),
    email: z.string().meta({ description: "The donor's email." }),
    amount: z.number().int().meta({ description: "The gift per cycle, in cents (without covered fees)." }),
    currency: z.string(),
    interval: z.enum(RECURRING_INTERVALS),
    status: z.enum(RECURRING_PLAN_STATUSES),
    subscriptionId: z.string().nullable(),
    createdAt: z.string(),
    canceledAt: z.string().nullable(),
    donationCount: z.number().int().meta({ description: "How many of its donations (first gift and renewals) SUCCEEDED." }),
    totalCents: z.number().int().meta({ description: "The sum of those SUCCEEDED donations' amounts." }),
  })
  .meta({ id: "RecurringPlan" });

export type RecurringPlanView = z.output<typeof recurringPlanSchema>;

/** A plan with what the list joins to it: the campaign's title, the donor's email, its SUCCEEDED totals. */
export type RecurringPlanRow = {
  plan: RecurringPlan;
  campaignTitle: string;
  email: string;
  donationCount: number;
  totalCents: number;
};

export function serializeRecurringPlan(r: RecurringPlanRow): RecurringPlanView {
  const p = r.plan;
  return {
    id: p.id,
    orgId: p.orgId,
    campaignId: p.campaignId,
    campaignTitle: r.campaignTitle,
    donorId: p.donorId,
    email: r.email,
    amount: p.amount,
    currency: p.currency,
    interval: p.interval,
    status: p.status,
    subscriptionId: p.subscriptionId,
    createdAt: iso(p.createdAt)!,
    canceledAt: iso(p.canceledAt),
    donationCount: r.donationCount,
    totalCents: r.totalCents,
  };
}
