import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { InvalidSignatureError, verifyProcessorEvent } from "@/lib/processor/verify-event";
import { applyProcessorEvent } from "@/lib/services/processor/apply-processor-event";
import { processorEventsCounter } from "@/lib/metrics";

const webhookAck = z
  .object({ received: z.literal(true), duplicate: z.literal(true).optional(), ignored: z.literal(true).optional() })
  .meta({ id: "WebhookAck" });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/processor/webhooks: processor events, verified by signature (processor)
  POST: withRoute(
    {
      auth: "public",
      limit: "none",
      fastPath: true,
      overload: "priority",
      // The signature over the raw body, checked before anything is stored for the request (an
      // Idempotency-Key's row included): this route has no rate limit to bound what strangers write.
      verify: async (req, rawBody) => {
        const header = req.headers.get("processor-signature") ?? req.headers.get("stripe-signature");
        return verifyProcessorEvent(Buffer.from(rawBody), header).catch((err: unknown) => {
          throw err instanceof InvalidSignatureError ? new ApiError(400, err.message) : err;
        });
      },
      doc: {
        operationId: "receiveProcessorEvent",
        summary: "Receive a payment processor event",
        description:
          "Called by the processor. Verified by the `Stripe-Signature` (or `Processor-Signature`) header over the raw body " +
          "with PROCESSOR_WEBHOOK_SECRET, 5-minute tolerance. Each event ID takes effect once across all instances " +
          "(recorded in the same transaction as its effects); a failure answers 500 and keeps nothing, so the processor retries.",
        tag: "Processor",
        rawBody: z.record(z.string(), z.unknown()).meta({ description: "The processor's event object (Stripe's shape)" }),
        success: 200,
        response: webhookAck,
        responseDescription:
          "`{ received: true }`, with `duplicate: true` for an event already processed or `ignored: true` for a type Goodfund does not act on",
      },
    },
    async ({ db, verified: event }) => {
      const result = await applyProcessorEvent(db, event, await getProcessor()).catch((err: unknown) => {
        processorEventsCounter().inc({ type: event.type, result: "failed" });
        throw err;
      });
      // Types Goodfund does not act on share one label, so the series stay bounded.
      processorEventsCounter().inc({ type: result === "unhandled" ? "other" : event.type, result });
      if (result === "duplicate") return ok({ received: true, duplicate: true });
      if (result === "unhandled") return ok({ received: true, ignored: true });
      return ok({ received: true });
    },
  ),
});
