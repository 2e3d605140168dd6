/**
 * Bytes the app allocates per `POST /api/donations` (sandbox), measured in-process: the route's
 * own handler (the `withRoute` function the server calls) given a `NextRequest`, on a fresh
 * database of the local Postgres seeded like the bench's, with the server's settings. What V8
 * allocated is read from its GC profile (`v8.GCProfiler`): the heap used before each collection
 * minus what the previous one left, plus what the last one left up to the end. See bench/README.md
 * ("Allocation per donation").
 *
 *   npx tsx bench/alloc.ts            # ALLOC_DONATIONS (4000) measured after ALLOC_WARMUP (1000)
 *   ALLOC_WEBHOOKS=1 npx tsx bench/alloc.ts   # and its payment_intent.succeeded, per complete donation
 *   ALLOC_PROFILE=/tmp/alloc.heapprofile …     # also a sampling heap profile of the measured part,
 *                                              # collected objects included (open it in Chrome DevTools)
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import v8 from "node:v8";
import { NextRequest } from "next/server";
import postgres from "postgres";
import { paymentIntentSucceeded as paymentIntentSucceededEvent, signedEvent } from "../lib/processor/event-factory";
import { DONATE_CAMPAIGN, seedBase } from "./lib/seed";

const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const N = Number(process.env.ALLOC_DONATIONS ?? 4000);
const WARMUP = Number(process.env.ALLOC_WARMUP ?? 1000);
const IN_FLIGHT = Number(process.env.ALLOC_IN_FLIGHT ?? 10);
const WEBHOOKS = process.env.ALLOC_WEBHOOKS === "1";
const WEBHOOK_SECRET = `whsec_alloc_${randomBytes(16).toString("hex")}`;

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type GcStat = { beforeGC: { heapStatistics: { usedHeapSize: number } }; afterGC: { heapStatistics: { usedHeapSize: number } } };

async function main() {
  const dbName = `goodfund_alloc_${Date.now()}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  Object.assign(process.env, {
    DATABASE_URL: dbUrl.toString(),
    NEXTAUTH_SECRET: `alloc-${randomBytes(24).toString("hex")}`,
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    PROCESSOR_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PAYMENTS_MODE: "sandbox",
    LOG_LEVEL: "warn",
    WORKER_DISABLED: "1",
    SEED_DEMO: "0",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "100000000",
    RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "100000000",
    FAILED_PAYMENTS_LIMIT: "100000000",
    OVERLOAD_SHEDDING: "0",
    RATE_LIMIT_BACKEND: "memory",
  });
  delete process.env.STRIPE_SECRET_KEY;
  const seed = postgres(dbUrl.toString(), { max: 2, onnotice: () => {} });
  try {
    const { runMigrations } = await import("../db/migrate");
    await runMigrations();
    await seedBase(seed);
    const donations = (await import("../app/api/donations/route")).POST as unknown as Handler;
    const webhooks = (await import("../app/api/processor/webhooks/route")).POST as unknown as Handler;

    let n = 0;
    const tag = randomBytes(3).toString("hex");
    const ctx = { params: Promise.resolve({}) };
    const donate = async () => {
      const i = n++;
      const body = JSON.stringify({
        campaignId: DONATE_CAMPAIGN,
        amount: [2500, 5000, 10000, 1234][i % 4],
        email: `alloc-${tag}-${i}@example.org`,
        firstName: "Grace",
        lastName: "Hopper",
        message: i % 5 === 0 ? "For the spring appeal" : undefined,
        coverFees: i % 3 === 0,
      });
      const res = await donations(
        new NextRequest("http://localhost:3000/api/donations", { method: "POST", headers: { "content-type": "application/json" }, body }),
        ctx,
      );
      if (res.status !== 201) throw new Error(`POST /api/donations answered ${res.status}: ${await res.text()}`);
      const created = (await res.json()) as { id: string; orgId: string; paymentIntentId: string; chargeAmountCents: number };
      if (!WEBHOOKS) return;
      const { payload, signature } = signedEvent(
        paymentIntentSucceededEvent({
          account: "acct_sandbox_benchops",
          destination: "acct_sandbox_benchops",
          paymentIntentId: created.paymentIntentId,
          amountCents: created.chargeAmountCents,
          currency: "usd",
          chargeId: `ch_${created.paymentIntentId.slice(3)}`,
          metadata: { donationId: created.id, orgId: created.orgId },
        }),
        WEBHOOK_SECRET,
      );
      const hook = await webhooks(
        new NextRequest("http://localhost:3000/api/processor/webhooks", {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": signature },
          body: payload,
        }),
        ctx,
      );
      if (hook.status !== 200) throw new Error(`webhook answered ${hook.status}: ${await hook.text()}`);
      await hook.arrayBuffer();
    };
    const run = async (count: number) => {
      let left = count;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (left-- > 0) await donate();
        }),
      );
    };

    await run(WARMUP);
    const inspector = process.env.ALLOC_PROFILE ? new Session() : undefined;
    if (inspector) {
      inspector.connect();
      await inspector.post("HeapProfiler.startSampling", {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
    const profiler = new v8.GCProfiler();
    const startUsed = v8.getHeapStatistics().used_heap_size;
    profiler.start();
    const t = performance.now();
    await run(N);
    const ms = performance.now() - t;
    const endUsed = v8.getHeapStatistics().used_heap_size;
    const stats = (profiler.stop()?.statistics ?? []) as GcStat[];
    if (inspector) {
      const { profile } = await inspector.post("HeapProfiler.stopSampling");
      writeFileSync(process.env.ALLOC_PROFILE!, JSON.stringify(profile));
      inspector.disconnect();
    }
    let allocated = 0;
    let left = startUsed;
    for (const s of stats) {
      allocated += s.beforeGC.heapStatistics.usedHeapSize - left;
      left = s.afterGC.heapStatistics.usedHeapSize;
    }
    allocated += endUsed - left;
    const what = WEBHOOKS ? "complete donation (POST /api/donations + payment_intent.succeeded)" : "POST /api/donations";
    console.log(
      `${N} × ${what}, ${IN_FLIGHT} in flight: ${(allocated / N / 1024).toFixed(1)} KB allocated per ${WEBHOOKS ? "donation" : "request"}, ` +
        `${stats.length} GCs, ${(ms / N).toFixed(2)} ms wall per request`,
    );
  } finally {
    await seed.end();
    const { closeDb } = await import("../db");
    await closeDb();
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
