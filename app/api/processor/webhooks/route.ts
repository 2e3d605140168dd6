import { readRawBody } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/processor";
import { InvalidSignatureError, verifyProcessorEvent } from "@/lib/processor/verify-event";
import { applyProcessorEvent } from "@/lib/services/processor/apply-processor-event";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/processor/webhooks: processor events, verified by signature (processor)
  POST: withRoute({ auth: "public", limit: "none" }, async ({ req, db }) => {
    const raw = Buffer.from(await readRawBody(req));
    const header = req.headers.get("processor-signature") ?? req.headers.get("stripe-signature");
    const event = await verifyProcessorEvent(raw, header).catch((err: unknown) => {
      throw err instanceof InvalidSignatureError ? new ApiError(400, err.message) : err;
    });
    const result = await applyProcessorEvent(db, event, await getProcessor());
    if (result === "duplicate") return ok({ received: true, duplicate: true });
    if (result === "unhandled") return ok({ received: true, ignored: true });
    return ok({ received: true });
  }),
});
