import { createHash, timingSafeEqual } from "node:crypto";
import { notFound, unauthorized } from "@/lib/api/errors";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";

/** Constant-time check of `Authorization: Bearer <secret>` (digests first, so lengths never leak). */
function bearerMatches(header: string | null, secret: string): boolean {
  const match = header ? /^Bearer (.+)$/i.exec(header.trim()) : null;
  if (!match) return false;
  const given = createHash("sha256").update(match[1]).digest();
  const expected = createHash("sha256").update(secret).digest();
  return timingSafeEqual(given, expected);
}

// One worker pass for serverless hosts, whose scheduler (e.g. Vercel Cron) sends the secret as a
// bearer token. Without CRON_SECRET the route does not exist.
const runOnce = withRoute({ auth: "public", limit: "none" }, async ({ req, db }) => {
  const secret = getEnv().CRON_SECRET;
  if (!secret) throw notFound();
  if (!bearerMatches(req.headers.get("authorization"), secret)) throw unauthorized();
  return ok(await runWorkerOnce(db));
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/cron/worker: run the worker once (Authorization: Bearer CRON_SECRET)
  GET: runOnce,
  // POST /api/cron/worker: the same, for schedulers that POST
  POST: runOnce,
});
