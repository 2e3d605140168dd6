import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { donations } from "@/db/schema";
import { conflict, fieldError, notFound } from "@/lib/errors";
import { setupIntentSucceeded } from "@/lib/processor/event-factory";
import { sandboxId } from "@/lib/processor/sandbox";
import {
  findSandboxSetupIntent,
  recordSandboxSubscriptionFact,
  SANDBOX_SETUP_CONFIRMED,
  sandboxSetupConfirmed,
  setupIntentOfSecret,
} from "@/lib/processor/sandbox-subscriptions";
import { getSandboxProcessor } from "./get-processor";
import { SANDBOX_CARDS } from "./sandbox-checkout";

const DECLINE_MESSAGE = "Your card was declined.";

/**
 * The sandbox card form, saving a card for a plan's later renewals (Stripe's `confirmSetup`):
 * 4242… is accepted and `setup_intent.succeeded` is sent through the webhook path, which makes
 * it the subscription's default card; 4000…0002 is declined (400 on `cardNumber`, nothing
 * changes, another card may be tried). The whole client secret must match one issued (404
 * otherwise); a SetupIntent whose card was accepted can't be confirmed again (409).
 */
export async function confirmSandboxSetup(
  db: Db,
  input: { clientSecret: string; cardNumber: string },
): Promise<{ status: "succeeded"; paymentMethodId: string }> {
  const setupIntentId = setupIntentOfSecret(input.clientSecret);
  const found = setupIntentId ? await findSandboxSetupIntent(db, setupIntentId) : null;
  if (!found || !setupIntentId) throw notFound("payment_not_found", "Card form not found");
  const card = input.cardNumber.replace(/[\s-]/g, "");
  if (card === SANDBOX_CARDS.declines) throw fieldError("cardNumber", DECLINE_MESSAGE, "card_declined");
  if (card !== SANDBOX_CARDS.succeeds) {
    throw fieldError(
      "cardNumber",
      "In sandbox mode use 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined)",
      "not_a_test_card",
      {
        values: [SANDBOX_CARDS.succeeds, SANDBOX_CARDS.declines],
      },
    );
  }
  const paymentMethodId = sandboxId("pm");
  const claimed = await db.transaction(async (tx) => {
    // Serialized per subscription on its first donation's row, so one SetupIntent is confirmed once.
    await tx.select({ id: donations.id }).from(donations).where(eq(donations.id, found.first.id)).for("update");
    if (await sandboxSetupConfirmed(tx, found.first.id, setupIntentId)) return false;
    await recordSandboxSubscriptionFact(tx, found.first.id, SANDBOX_SETUP_CONFIRMED, { setupIntentId, paymentMethodId });
    return true;
  });
  if (!claimed) throw conflict("payment_already_complete", "This card was already saved");
  await getSandboxProcessor().sendEvent(
    setupIntentSucceeded({
      eventId: sandboxId("evt"),
      setupIntentId,
      customerId: null,
      paymentMethodId,
      metadata: { planId: found.planId, subscriptionId: found.subscriptionId },
    }),
  );
  return { status: "succeeded", paymentMethodId };
}
