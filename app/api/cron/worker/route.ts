import { z } from "zod";
import { ok } from "@/lib/api/respond";
import { methods, withRoute, type RouteDoc } from "@/lib/api/route";
import { runWorkerOnce } from "@/lib/jobs/worker";

const workerRun = z
  .object({ delivered: z.number().int(), failed: z.number().int(), published: z.number().int(), ended: z.number().int() })
  .meta({ id: "WorkerRun" });

const doc = (operationId: string): RouteDoc => ({
  operationId,
  summary: "Run the background worker once",
  description:
    "For serverless hosts without a long-running worker: delivers due emails and outbound webhooks, publishes " +
    "scheduled campaigns and ends campaigns past their end date. Answers 404 when CRON_SECRET is not set.",
  tag: "Jobs",
  success: 200,
  response: workerRun,
  responseDescription: "What this run did",
});

// One worker pass for serverless hosts, whose scheduler (e.g. Vercel Cron) sends CRON_SECRET as a
// bearer token. Without CRON_SECRET the route does not exist.
const runOnce = (operationId: string) => withRoute({ auth: "cron", doc: doc(operationId) }, async ({ db }) => ok(await runWorkerOnce(db)));

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/cron/worker: run the worker once (Authorization: Bearer CRON_SECRET)
  GET: runOnce("runWorkerGet"),
  // POST /api/cron/worker: the same, for schedulers that POST
  POST: runOnce("runWorker"),
});
