import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { organizations } from "@/db/schema";
import type { EventHandler } from "./types";

/**
 * Keeps the organization's charges/payouts flags in step with its connected account, and moves
 * it ONBOARDING → ACTIVE once both are enabled (the only organization transition the spec names).
 */
export const accountUpdated: EventHandler<Stripe.AccountUpdatedEvent> = {
  async apply(tx, event) {
    const account = event.data.object;
    const charges = Boolean(account.charges_enabled);
    const payouts = Boolean(account.payouts_enabled);
    const updated = await tx
      .update(organizations)
      .set({
        chargesEnabled: charges,
        payoutsEnabled: payouts,
        status: charges && payouts ? "ACTIVE" : sql`${organizations.status}`,
        updatedAt: sql`now()`,
      })
      .where(eq(organizations.processorAccountId, account.id))
      .returning({ id: organizations.id });
    return updated.length > 0 ? "applied" : "ignored";
  },
};
