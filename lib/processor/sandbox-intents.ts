import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "@/db";
import { donationEvents, type Donation } from "@/db/schema";
import { getEnv } from "@/lib/env";
import type { PaymentIntentStatus } from "./types";

/**
 * The sandbox's PaymentIntents have no store of their own: what Stripe would remember about an
 * intent (its client secret, whether its card was accepted, whether it was canceled) is derived
 * or written on the donation it belongs to. Card acceptance and cancellation are timeline rows
 * written under the donation's row lock, so a confirm and a cancel racing for one intent are
 * decided one after the other, exactly once, as Stripe decides them.
 */
export const SANDBOX_CONFIRMED = "sandbox.payment_confirmed";
export const SANDBOX_CANCELED = "sandbox.payment_canceled";

/**
 * The client secret of a sandbox PaymentIntent: its ID and a MAC of it under the server's key.
 * Nothing is stored, yet only the holder of the secret the server handed out can confirm it.
 */
export function sandboxClientSecret(paymentIntentId: string): string {
  return macSecret("sandbox-client-secret", paymentIntentId);
}

/**
 * The PaymentIntent a sandbox client secret belongs to, or null when the secret is not one the
 * server issued. The whole secret is compared, in constant time.
 */
export function paymentIntentOfSecret(clientSecret: string): string | null {
  return idOfSecret(clientSecret, /^pi_sandbox_[0-9a-f]{24}$/, sandboxClientSecret);
}

/** A sandbox intent's client secret: `id_secret_` and a MAC of the ID, for `purpose`, under the server's key. */
export function macSecret(purpose: string, id: string): string {
  const tail = createHmac("sha256", getEnv().secretsKey).update(`${purpose}:${id}`).digest("base64url").slice(0, 32);
  return `${id}_secret_${tail}`;
}

/**
 * The intent ID a client secret starts with, when that ID has the form `idPattern` and `issue`
 * hands out exactly this secret for it (compared whole, in constant time); else null.
 */
export function idOfSecret(clientSecret: string, idPattern: RegExp, issue: (id: string) => string): string | null {
  const at = clientSecret.indexOf("_secret_");
  if (at <= 0) return null;
  const id = clientSecret.slice(0, at);
  if (!idPattern.test(id)) return null;
  const given = Buffer.from(clientSecret, "utf8");
  const expected = Buffer.from(issue(id), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return id;
}

/** What the sandbox remembers about the intent of a donation locked by the caller. */
export async function sandboxIntentMarks(tx: Tx, donationId: string): Promise<{ confirmed: boolean; canceled: boolean }> {
  const rows = await tx
    .select({ type: donationEvents.type })
    .from(donationEvents)
    .where(
      and(
        eq(donationEvents.donationId, donationId),
        inArray(donationEvents.type, [SANDBOX_CONFIRMED, SANDBOX_CANCELED, "payment_intent.canceled"]),
      ),
    );
  return {
    confirmed: rows.some((r) => r.type === SANDBOX_CONFIRMED),
    canceled: rows.some((r) => r.type !== SANDBOX_CONFIRMED),
  };
}

export async function markSandboxIntent(
  tx: Tx,
  donation: Pick<Donation, "id" | "paymentIntentId">,
  type: typeof SANDBOX_CONFIRMED | typeof SANDBOX_CANCELED,
) {
  await tx.insert(donationEvents).values({ donationId: donation.id, type, data: { paymentIntentId: donation.paymentIntentId } });
}

/**
 * Cancels the sandbox intent of a donation locked by the caller, as Stripe would: refused (the
 * status is answered instead) once its card was accepted or the donation settled.
 */
export async function cancelSandboxIntent(tx: Tx, donation: Donation): Promise<PaymentIntentStatus> {
  const marks = await sandboxIntentMarks(tx, donation.id);
  if (marks.canceled) return "canceled";
  if (marks.confirmed || donation.status === "SUCCEEDED" || donation.status === "DISPUTED" || donation.status === "REFUNDED")
    return "succeeded";
  await markSandboxIntent(tx, donation, SANDBOX_CANCELED);
  return "canceled";
}
