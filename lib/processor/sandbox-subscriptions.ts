import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donationEvents, donations, type Donation } from "@/db/schema";
import { idOfSecret, macSecret } from "./sandbox-intents";
import { ProcessorError } from "./types";

/**
 * What the sandbox remembers about a subscription besides its donations, as Stripe would: its
 * price after a change, the SetupIntents made to replace its card, and its default payment
 * method. Like the sandbox's PaymentIntents (sandbox-intents.ts) it has no store of its own:
 * each fact is a timeline row of the subscription's first donation, the newest one deciding.
 */
export const SANDBOX_PRICE_CHANGED = "sandbox.subscription_price_changed";
export const SANDBOX_SETUP_CREATED = "sandbox.setup_intent_created";
export const SANDBOX_SETUP_CONFIRMED = "sandbox.setup_intent_confirmed";
export const SANDBOX_DEFAULT_PAYMENT_METHOD = "sandbox.default_payment_method_set";

/** The first donation of a sandbox subscription, or null when there is no such sandbox subscription. */
export async function findFirstDonationOfSandboxSubscription(db: DbOrTx, subscriptionId: string): Promise<Donation | null> {
  const [first] = await db
    .select()
    .from(donations)
    .where(and(eq(donations.subscriptionId, subscriptionId), eq(donations.isRenewal, false)))
    .limit(1);
  return first && subscriptionId.startsWith("sub_sandbox_") ? first : null;
}

/** The first donation of a sandbox subscription, or a `resource_missing` ProcessorError as Stripe answers. */
export async function firstDonationOfSandboxSubscription(db: DbOrTx, subscriptionId: string): Promise<Donation> {
  const first = await findFirstDonationOfSandboxSubscription(db, subscriptionId);
  if (!first) {
    throw new ProcessorError(`No such subscription: '${subscriptionId}'`, "resource_missing");
  }
  return first;
}

/** The newest fact of a type about the subscription of `firstDonationId`, or null. */
async function latest(db: DbOrTx, firstDonationId: string, type: string): Promise<Record<string, unknown> | null> {
  const [row] = await db
    .select({ data: donationEvents.data })
    .from(donationEvents)
    .where(and(eq(donationEvents.donationId, firstDonationId), eq(donationEvents.type, type)))
    .orderBy(desc(donationEvents.id))
    .limit(1);
  return (row?.data as Record<string, unknown> | null) ?? null;
}

export async function recordSandboxSubscriptionFact(db: DbOrTx, firstDonationId: string, type: string, data: Record<string, unknown>) {
  await db.insert(donationEvents).values({ donationId: firstDonationId, type, data });
}

/** What a sandbox subscription charges a cycle: its changed price, else its first invoice's (gift plus covered fees). */
export async function sandboxSubscriptionUnitAmount(db: DbOrTx, first: Donation): Promise<number> {
  const changed = await latest(db, first.id, SANDBOX_PRICE_CHANGED);
  return typeof changed?.unitAmountCents === "number" ? changed.unitAmountCents : first.amount + first.feeCents;
}

/** The sandbox subscription's default payment method, once a card was set (null: the first payment's card). */
export async function sandboxDefaultPaymentMethod(db: DbOrTx, first: Donation): Promise<string | null> {
  const set = await latest(db, first.id, SANDBOX_DEFAULT_PAYMENT_METHOD);
  return typeof set?.paymentMethodId === "string" ? set.paymentMethodId : null;
}

/** A sandbox SetupIntent's client secret: its ID and a MAC of it under the server's key (nothing secret is stored). */
export function sandboxSetupClientSecret(setupIntentId: string): string {
  return macSecret("sandbox-setup-secret", setupIntentId);
}

/** The SetupIntent a sandbox client secret belongs to, or null when the server did not issue it (compared in constant time). */
export function setupIntentOfSecret(clientSecret: string): string | null {
  return idOfSecret(clientSecret, /^seti_sandbox_[0-9a-f]{24}$/, sandboxSetupClientSecret);
}

/** The first donation whose subscription a sandbox SetupIntent was made for, with the intent's metadata. */
export async function findSandboxSetupIntent(
  db: DbOrTx,
  setupIntentId: string,
): Promise<{ first: Donation; planId: string; subscriptionId: string } | null> {
  const [row] = await db
    .select({ first: donations, data: donationEvents.data })
    .from(donationEvents)
    .innerJoin(donations, eq(donations.id, donationEvents.donationId))
    .where(and(eq(donationEvents.type, SANDBOX_SETUP_CREATED), sql`${donationEvents.data} ->> 'setupIntentId' = ${setupIntentId}`))
    .limit(1);
  if (!row) return null;
  const data = row.data as { planId: string; subscriptionId: string };
  return { first: row.first, planId: data.planId, subscriptionId: data.subscriptionId };
}

/** Whether a sandbox SetupIntent was already confirmed (with an accepted card). */
export async function sandboxSetupConfirmed(db: DbOrTx, firstDonationId: string, setupIntentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: donationEvents.id })
    .from(donationEvents)
    .where(
      and(
        eq(donationEvents.donationId, firstDonationId),
        eq(donationEvents.type, SANDBOX_SETUP_CONFIRMED),
        sql`${donationEvents.data} ->> 'setupIntentId' = ${setupIntentId}`,
      ),
    )
    .limit(1);
  return Boolean(row);
}
