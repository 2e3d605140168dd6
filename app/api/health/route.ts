import { z } from "zod";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";

const health = z.object({ status: z.literal("ok") }).meta({ id: "Health" });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/health: the process serves (public; no database, never rate-limited or shed)
  GET: withRoute(
    {
      auth: "public",
      limit: "none",
      fastPath: true,
      overload: "exempt",
      doc: {
        operationId: "getHealth",
        summary: "Liveness probe",
        description:
          'Public. Answers 200 `{ "status": "ok" }` while the process serves requests. It touches neither the database ' +
          "nor the rate-limit store, is never rate-limited and never shed under overload: aim a load balancer's " +
          "liveness check here, and its readiness check at `GET /api/ready`.",
        tag: "Operations",
        success: 200,
        response: health,
        responseDescription: "The process serves",
      },
    },
    async () => ok({ status: "ok" }),
  ),
});
