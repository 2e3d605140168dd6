import { z } from "zod";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getReadiness } from "@/lib/services/operations/readiness";

const checkResult = z.enum(["ok", "failing"]);
const checks = z.object({ database: checkResult, rateLimitStore: checkResult, outbox: checkResult });
const readiness = z.object({ status: z.literal("ready"), checks }).meta({ id: "Readiness" });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/ready: whether this instance can serve: database, rate-limit store, outbox lag (public; never rate-limited or shed)
  GET: withRoute(
    {
      auth: "public",
      limit: "none",
      fastPath: true,
      overload: "exempt",
      doc: {
        operationId: "getReadiness",
        summary: "Readiness probe",
        description:
          'Public. Answers 200 `{ "status": "ready", "checks": { "database": "ok", "rateLimitStore": "ok", ' +
          '"outbox": "ok" } }` when the database and the rate-limit store answer (within 2 seconds each) and the ' +
          "oldest due outbox item (an email or outbound webhook) has waited no longer than " +
          '`READY_OUTBOX_MAX_LAG_SECONDS` (300 by default). Otherwise 503 `{ "error": "Not ready: database", ' +
          '"status": 503, "checks": { ... } }`, naming the failing checks; it recovers on its own. Never ' +
          "rate-limited, never shed under overload, and it reveals nothing beyond the checks.",
        tag: "Operations",
        success: 200,
        response: readiness,
        responseDescription: "Every check passes",
      },
    },
    async ({ db }) => {
      const { ready, checks } = await getReadiness(db);
      if (ready) return json({ status: "ready", checks }, { headers: { "cache-control": "no-store" } });
      const failing = Object.entries(checks)
        .filter(([, result]) => result !== "ok")
        .map(([name]) => name);
      return json(
        { error: `Not ready: ${failing.join(", ")}`, status: 503, checks },
        { status: 503, headers: { "cache-control": "no-store", "retry-after": "5" } },
      );
    },
  ),
});
