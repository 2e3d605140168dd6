import type Stripe from "stripe";
import { readRawBody } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/processor";
import { webhookVerifier } from "@/lib/processor/stripe-client";
import { getWebhookSecret } from "@/lib/processor/webhook-secret";
import { applyProcessorEvent } from "@/lib/services/processor/apply-processor-event";

const TOLERANCE_SECONDS = 300;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/processor/webhooks: processor events, verified by signature (processor)
  POST: withRoute({ auth: "public", limit: "none" }, async ({ req, db }) => {
    const raw = Buffer.from(await readRawBody(req));
    const header = req.headers.get("processor-signature") ?? req.headers.get("stripe-signature");
    if (!header) throw new ApiError(400, "Invalid signature");
    const secret = getWebhookSecret();
    let event: Stripe.Event;
    try {
      event = await webhookVerifier().webhooks.constructEventAsync(raw, header, secret, TOLERANCE_SECONDS);
    } catch {
      throw new ApiError(400, "Invalid signature");
    }
    const result = await applyProcessorEvent(db, event, await getProcessor());
    if (result === "duplicate") return ok({ received: true, duplicate: true });
    if (result === "unhandled") return ok({ received: true, ignored: true });
    return ok({ received: true });
  }),
});
