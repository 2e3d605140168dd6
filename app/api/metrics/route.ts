import { createHash, timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { getDb } from "@/db";
import { notFound, unauthorized } from "@/lib/api/errors";
import { errorResponse } from "@/lib/api/respond";
import { defineRoute } from "@/lib/api/route";
import { getEnv } from "@/lib/env";
import { instanceMetrics } from "@/lib/metrics/cluster";
import { databaseMetrics } from "@/lib/metrics/database";
import { processorEventsCounter, webhookDeliveriesCounter } from "@/lib/metrics";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** `Authorization: Bearer <token>` against METRICS_TOKEN, in constant time (both hashed to one length). */
function hasToken(req: NextRequest, token: string): boolean {
  const header = req.headers.get("authorization") ?? "";
  const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

// GET /api/metrics: Prometheus metrics of the whole instance (Authorization: Bearer METRICS_TOKEN;
// 404 while it is unset). Outside the API reference: for a monitoring system, not API clients.
const handler = defineRoute({ access: "public", limit: "none", overload: "exempt" }, async (req: NextRequest): Promise<Response> => {
  const token = getEnv().METRICS_TOKEN;
  if (!token) return errorResponse(notFound());
  if (!hasToken(req, token)) return errorResponse(unauthorized());
  // The counters exist (at zero) before their first event, so a scrape always lists them.
  processorEventsCounter();
  webhookDeliveriesCounter();
  const [processes, database] = await Promise.all([instanceMetrics(), databaseMetrics(await getDb())]);
  return new Response(`${processes.trimEnd()}\n${database}`, {
    status: 200,
    headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" },
  });
});

export { handler as GET };
