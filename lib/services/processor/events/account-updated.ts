import type Stripe from "stripe";
import { syncPayoutAccount } from "@/lib/services/organizations/sync-payout-account";
import type { EventHandler } from "./types";

/** A connected account's capabilities changed: the organization's payout account (see syncPayoutAccount). */
export const accountUpdated: EventHandler<Stripe.AccountUpdatedEvent> = {
  apply(tx, event) {
    const account = event.data.object;
    return syncPayoutAccount(tx, {
      accountId: account.id,
      chargesEnabled: Boolean(account.charges_enabled),
      payoutsEnabled: Boolean(account.payouts_enabled),
    });
  },
};
