import { createHash, timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { notFound, unauthorized } from "@/lib/api/errors";
import { methods, withRoute } from "@/lib/api/route";
import { getEnv } from "@/lib/env";
import { processorEventsCounter, webhookDeliveriesCounter } from "@/lib/metrics";
import { instanceMetrics } from "@/lib/metrics/cluster";
import { databaseMetrics } from "@/lib/metrics/database";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** `Authorization: Bearer <token>` against METRICS_TOKEN, in constant time (both hashed to one length). */
function hasToken(req: NextRequest, token: string): boolean {
  const header = req.headers.get("authorization") ?? "";
  const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/metrics: Prometheus metrics of the whole instance (Authorization: Bearer METRICS_TOKEN; 404 while it is unset)
  GET: withRoute(
    {
      auth: "public",
      limit: "none",
      overload: "exempt",
      doc: {
        operationId: "getMetrics",
        summary: "Prometheus metrics",
        description:
          "For a monitoring system: the instance's metrics in Prometheus's text format, every server process " +
          "(`WEB_CONCURRENCY`) summed. Only with `Authorization: Bearer <METRICS_TOKEN>`: a missing or wrong token " +
          "answers 401 `Unauthorized`, and while `METRICS_TOKEN` is not set the route answers 404. Requests by route " +
          "pattern, method and status (`goodfund_http_requests_total`, `goodfund_http_request_duration_seconds`), " +
          "processor events by type and result, outbound webhook deliveries by result, donations by status, the " +
          "outbox's depth and the age of its oldest due item, database connections, overload sheds by class, and the " +
          "processes' CPU and memory. Never rate-limited or shed.",
        tag: "Operations",
        success: 200,
        response: z.string().meta({ description: "Prometheus text format 0.0.4" }),
        responseMediaType: "text/plain",
        responseDescription: "The metrics",
      },
    },
    async ({ req, db }) => {
      const token = getEnv().METRICS_TOKEN;
      if (!token) throw notFound();
      if (!hasToken(req, token)) throw unauthorized();
      // The counters exist (at zero) before their first event, so a scrape always lists them.
      processorEventsCounter();
      webhookDeliveriesCounter();
      const [processes, database] = await Promise.all([instanceMetrics(), databaseMetrics(db)]);
      return new Response(`${processes.trimEnd()}\n${database}`, {
        status: 200,
        headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
      });
    },
  ),
});
