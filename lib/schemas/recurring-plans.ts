import { z } from "zod";
import type { RecurringPlanRow } from "@/db/queries/recurring-plans";
import { iso, pageQuery } from "./common";
import { RECURRING_INTERVALS } from "./donations";

export const RECURRING_PLAN_STATUSES = ["INCOMPLETE", "ACTIVE", "PAST_DUE", "CANCELED"] as const;

export const RECURRING_PLAN_LIST_DEFAULT_LIMIT = 25;

/** Who ended a plan: the donor from their account, staff (dashboard or API), or the processor on its own (e.g. failed payments). */
export const PLAN_CANCELED_BY = ["donor", "staff", "processor"] as const;
export type PlanCanceledBy = (typeof PLAN_CANCELED_BY)[number];

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
    email: z
      .string()
      .nullable()
      .meta({ description: "The donor's email; null when the plan was merged into a donor recorded without one." }),
    amount: z.number().int().meta({ description: "The gift per cycle, in cents (without covered fees)." }),
    currency: z.string(),
    interval: z.enum(RECURRING_INTERVALS),
    status: z.enum(RECURRING_PLAN_STATUSES),
    subscriptionId: z.string().nullable(),
    createdAt: z.string(),
    canceledAt: z.string().nullable(),
    canceledBy: z.enum(PLAN_CANCELED_BY).nullable().meta({
      description:
        "Who ended the plan: `donor` (from their account), `staff` (dashboard or API) or `processor` (on its own, e.g. after failed payments); null while it runs, and on plans canceled before this was recorded.",
    }),
    pastDueAt: z.string().nullable().meta({ description: "PAST_DUE: when a renewal payment first failed; null otherwise." }),
    nextRetryAt: z.string().nullable().meta({
      description:
        "PAST_DUE: when the processor tries the unpaid renewal again (its invoice's `next_payment_attempt`); null when it won't, or the plan isn't past due.",
    }),
    card: z
      .object({ brand: z.string().nullable(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int() })
      .nullable()
      .meta({
        description:
          "The card the processor last charged for the plan (from its `charge.succeeded` events); null until one is reported, and after the donor saves a new card.",
      }),
    donationCount: z.number().int().meta({ description: "How many of its donations (first gift and renewals) SUCCEEDED." }),
    totalCents: z.number().int().meta({ description: "The sum of those SUCCEEDED donations' amounts." }),
  })
  .meta({ id: "RecurringPlan" });

export type RecurringPlanView = z.output<typeof recurringPlanSchema>;

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
    canceledBy: p.status === "CANCELED" ? (p.canceledBy ?? null) : null,
    pastDueAt: p.status === "PAST_DUE" ? iso(p.pastDueAt) : null,
    nextRetryAt: p.status === "PAST_DUE" ? iso(p.nextRetryAt) : null,
    card:
      p.cardLast4 && p.cardExpMonth && p.cardExpYear
        ? { brand: p.cardBrand, last4: p.cardLast4, expMonth: p.cardExpMonth, expYear: p.cardExpYear }
        : null,
    donationCount: r.donationCount,
    totalCents: r.totalCents,
  };
}

/** `PATCH /api/donor/orgs/:orgSlug/recurring-plans/:id`: the gift per cycle from the next charge on. */
export const changePlanAmountBody = z
  .object({
    amount: z
      .number()
      .int()
      .min(100, "Number must be greater than or equal to 100")
      .max(100_000_000)
      .meta({ description: "The new gift per cycle, in minor units (without covered fees)." }),
  })
  .meta({ id: "ChangePlanAmount" });

/** What the card form needs to replace a plan's card: a Stripe SetupIntent, or the sandbox's card form. */
export const planPaymentMethodSetupSchema = z
  .object({
    mode: z.enum(["stripe", "sandbox"]),
    setupIntentId: z.string(),
    clientSecret: z
      .string()
      .meta({ description: "Confirm it with Stripe.js (`confirmSetup`) or, in sandbox mode, `POST /api/sandbox/setup-intents/confirm`." }),
    publishableKey: z.string().nullable().meta({ description: "Stripe's publishable key for the Payment Element (null in sandbox mode)." }),
  })
  .meta({ id: "PlanPaymentMethodSetup" });
