import { DIRECT_ROUTES, directServer } from "@/lib/api/direct-routes";
import * as donations from "./donations/route";
import * as processorWebhooks from "./processor/webhooks/route";

/**
 * The API routes scripts/server.mjs hands their requests straight to (lib/api/direct-routes.ts):
 * the two of every gift, a donor starting it and the processor's event settling it. Called once per
 * server process at start-up.
 */
export function registerDirectRoutes(): void {
  (globalThis as Record<symbol, unknown>)[DIRECT_ROUTES] = directServer({
    "/api/donations": { POST: donations.POST },
    "/api/processor/webhooks": { POST: processorWebhooks.POST },
  });
}
