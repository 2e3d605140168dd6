import { z } from "zod";
import type { reconcileRuns } from "@/db/schema";
import { iso } from "./common";

const repair = z
  .object({
    kind: z
      .enum(["event", "payment"])
      .meta({ description: "`event`: a missed event applied; `payment`: a PENDING payment settled from its PaymentIntent" }),
    orgId: z.string().nullable(),
    donationId: z.string().nullable(),
    eventId: z.string().nullable().meta({ description: "The processor event applied (kind `event`)" }),
    eventType: z.string().meta({ example: "payment_intent.succeeded" }),
    paymentIntentId: z.string().nullable(),
    change: z
      .string()
      .meta({ description: "The donation's status before and after, e.g. `PENDING → SUCCEEDED`", example: "PENDING → SUCCEEDED" }),
    at: z.string(),
  })
  .meta({ id: "ReconcileRepair" });

/** One thing a run put right, kept in `reconcile_runs.repairs` and logged. */
export type Repair = z.output<typeof repair>;

/** A run as `reconcile_runs` keeps it. */
export type ReconcileRun = Omit<typeof reconcileRuns.$inferSelect, "repairs"> & { repairs: Repair[] };

export const reconcileRunSchema = z
  .object({
    id: z.number().int(),
    trigger: z.enum(["schedule", "manual"]),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    listedFrom: z.string().nullable().meta({ description: "Events created at or after this instant were listed" }),
    checkpoint: z.string().nullable().meta({ description: "Where the next run lists from (less an overlap); null when this run failed" }),
    eventsListed: z.number().int(),
    eventsApplied: z.number().int().meta({ description: "Listed events that had never been processed and changed something" }),
    pendingChecked: z.number().int().meta({ description: "PENDING payments whose PaymentIntent was fetched" }),
    pendingSettled: z.number().int(),
    repairs: z.array(repair),
    error: z.string().nullable(),
  })
  .meta({ id: "ReconcileRun" });

export function serializeReconcileRun(run: ReconcileRun): z.input<typeof reconcileRunSchema> {
  return {
    id: run.id,
    trigger: run.trigger,
    startedAt: run.startedAt.toISOString(),
    finishedAt: iso(run.finishedAt),
    listedFrom: iso(run.listedFrom),
    checkpoint: iso(run.checkpoint),
    eventsListed: run.eventsListed,
    eventsApplied: run.eventsApplied,
    pendingChecked: run.pendingChecked,
    pendingSettled: run.pendingSettled,
    repairs: run.repairs,
    error: run.error,
  };
}
