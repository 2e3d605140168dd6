import { sql } from "drizzle-orm";
import type { Db } from "@/db";
import { getOutboxBacklog } from "@/db/queries/outbox";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { checkRateLimitStore } from "@/lib/ratelimit";

export type CheckName = "database" | "rateLimitStore" | "outbox";
export type CheckResult = "ok" | "failing";
export type Readiness = { ready: boolean; checks: Record<CheckName, CheckResult> };

/** The longest one check may take: a load balancer's probe usually gives up after a few seconds. */
export const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this instance can serve: the database answers, the rate-limit store answers (the
 * memory store always does), and the outbox keeps up (its oldest due row has waited no longer
 * than READY_OUTBOX_MAX_LAG_SECONDS; a database that does not answer fails this check too).
 * The checks run at once, each bounded by CHECK_TIMEOUT_MS; a failing one is logged with its
 * reason, which the answer does not carry.
 */
export async function getReadiness(db: Db): Promise<Readiness> {
  const maxLag = getEnv().READY_OUTBOX_MAX_LAG_SECONDS;
  const run = async (name: CheckName, check: () => Promise<boolean>): Promise<[CheckName, CheckResult]> => {
    try {
      if (await withTimeout(check(), name)) return [name, "ok"];
      log.warn("readiness check failing", { check: name });
    } catch (err) {
      log.warn("readiness check failing", { check: name, ...errorFields(err) });
    }
    return [name, "failing"];
  };
  const results = await Promise.all([
    run("database", async () => {
      await db.execute(sql`select 1`);
      return true;
    }),
    run("rateLimitStore", async () => {
      await checkRateLimitStore();
      return true;
    }),
    run("outbox", async () => (await getOutboxBacklog(db)).oldestDueSeconds <= maxLag),
  ]);
  const checks = Object.fromEntries(results) as Record<CheckName, CheckResult>;
  return { ready: results.every(([, r]) => r === "ok"), checks };
}
