import { z } from "zod";
import type { OperationRow } from "./types";

const workerRun = z
  .object({ delivered: z.number().int(), failed: z.number().int(), published: z.number().int(), ended: z.number().int() })
  .meta({ id: "WorkerRun" });

const cronRow = (method: "GET" | "POST"): OperationRow => ({
  file: "cron/worker",
  method,
  operationId: method === "GET" ? "runWorkerGet" : "runWorker",
  summary: "Run the background worker once",
  description:
    "For serverless hosts without a long-running worker: delivers due emails and outbound webhooks, publishes " +
    "scheduled campaigns and ends campaigns past their end date. Answers 404 when CRON_SECRET is not set.",
  tag: "Jobs",
  access: "cron",
  limit: "none",
  success: 200,
  response: workerRun,
  responseDescription: "What this run did",
});

/** The worker's cron entry point (GET for schedulers that only send GET). */
export const JOB_OPERATIONS: readonly OperationRow[] = [cronRow("GET"), cronRow("POST")];
