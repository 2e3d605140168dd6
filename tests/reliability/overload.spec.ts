import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as factory from "@/lib/processor/event-factory";
import {
  WEBHOOK_SECRET,
  deliverAll,
  giftsAndEvents,
  isErrorShape,
  knob,
  redeliveries,
  request,
  rng,
  sleep,
  type Answer,
  instancesForFile,
  runOutcome,
} from "./helpers";

/**
 * Giving Tuesday on one machine. First the run measures what this machine serves (a few seconds
 * of the same mix from a handful of clients that wait for each answer), and how long one donation
 * takes for a single client. Then requests arrive at RELIABILITY_OVERLOAD_FACTOR (3) times that
 * rate, whether or not earlier ones were answered, for RELIABILITY_OVERLOAD_SECONDS: donate page
 * views, donations (each with its own Idempotency-Key, retried with it after a 503 or a lost
 * answer, as the donate page and the SDK do), processor events (each delivered twice, redelivered
 * after any answer but 2xx) and the dashboard's summary report. The server sheds (server/overload.ts).
 *
 * What must hold: every request answered, none with a 5xx but 503-with-Retry-After; no donation
 * lost (every 201 is in the database, every donation in the database was answered 201) or doubled
 * (one per attempt); the events applied exactly once and the money adding up (findViolations);
 * donations and events shed no more often than page views and reports; page views rendered past
 * the queue leave out the donor roll; the admitted donations' p99 within the priority queue's
 * longest wait (5 × OVERLOAD_QUEUE_MS, 10 s) plus RELIABILITY_OVERLOAD_P99_FACTOR times the
 * single-client median for their own work on a saturated machine. It prints the share shed per class.
 */
const CI = Boolean(process.env.CI);
const SECONDS = knob("RELIABILITY_OVERLOAD_SECONDS", CI ? 20 : 60);
const MEASURE_SECONDS = knob("RELIABILITY_OVERLOAD_MEASURE_SECONDS", CI ? 3 : 5);
const FACTOR = knob("RELIABILITY_OVERLOAD_FACTOR", 3);
const P99_FACTOR = knob("RELIABILITY_OVERLOAD_P99_FACTOR", 50);
// The longest an admitted donation may wait for its turn (the priority class: 5 × OVERLOAD_QUEUE_MS).
const PRIORITY_WAIT_MS = 5 * 2_000;
const EVENTS = knob("RELIABILITY_OVERLOAD_EVENTS", CI ? 150 : 400);
const SEED = knob("RELIABILITY_SEED", Date.now() % 1_000_000);
// No answer may take longer than this (the longest queue wait is 10 s; everything else is work).
const BOUND_MS = knob("RELIABILITY_OVERLOAD_BOUND_MS", 30_000);
// The client's own ceiling on requests in flight, so the test process never drowns itself.
const MAX_IN_FLIGHT = 2_000;

type Kind = "page" | "donation" | "webhook" | "report";
/** The mix of arrivals: mostly page views, a steady stream of gifts and events, a few reports. */
const MIX: [Kind, number][] = [
  ["page", 0.5],
  ["donation", 0.25],
  ["webhook", 0.17],
  ["report", 0.08],
];

type Call = {
  kind: Kind;
  status: number | "network" | "timeout";
  ms: number;
  retryAfter: string | null;
  shed: string | null;
  shaped: boolean;
  donorRoll?: boolean;
};

const file = instancesForFile("overload", { count: 1 });

describe("three times this machine's capacity", () => {
  it(`sheds page views and reports first, loses and doubles no donation, answers no 500 (seed ${SEED})`, async () => {
    const r = rng(SEED);
    const url = file.instances.url(0)!;
    const plain = file.fx.campaigns.find((c) => c.kind === "plain")!;
    const auth = { authorization: `Bearer ${file.fx.token}` };
    // Gifts and their processor events, delivered during the run (the paid ones fill the donor roll).
    const { events } = await giftsAndEvents(url, file.fx, EVENTS, r);
    const deliveries = redeliveries(events, 2, r);
    const acknowledged = new Set<number>();
    let nextDelivery = 0;
    const run = Math.random().toString(36).slice(2, 8);
    let giftNo = 0;
    const gifts: { email: string; key: string; id: string | null; statuses: (number | string)[] }[] = [];

    const timed = async (kind: Kind, send: () => Promise<Answer>): Promise<Call> => {
      const started = performance.now();
      try {
        const a = await send();
        return {
          kind,
          status: a.status,
          ms: a.ms,
          retryAfter: a.headers.get("retry-after"),
          shed: a.headers.get("x-goodfund-shed"),
          shaped: a.status < 400 || kind === "page" || isErrorShape(a),
          donorRoll: kind === "page" && a.status === 200 ? />Recent donors</.test(a.text) : undefined,
        };
      } catch (err) {
        const e = err as Error;
        return {
          kind,
          status: e.name === "TimeoutError" ? "timeout" : "network",
          ms: performance.now() - started,
          retryAfter: null,
          shed: null,
          shaped: false,
        };
      }
    };

    const calls: Call[] = [];
    /** One arrival of a kind; a donation retries with its key until answered (or 5 tries). */
    const arrive = async (kind: Kind): Promise<void> => {
      if (kind === "page") {
        calls.push(await timed(kind, () => request(`${url}/o/${file.fx.org.slug}/donate/${plain.slug}`, { timeoutMs: BOUND_MS })));
      } else if (kind === "report") {
        calls.push(
          await timed(kind, () => request(`${url}/api/orgs/${file.fx.org.id}/reports/summary`, { headers: auth, timeoutMs: BOUND_MS })),
        );
      } else if (kind === "webhook") {
        const i = nextDelivery++ % deliveries.length;
        const ev = deliveries[i];
        const call = await timed(kind, () =>
          request(`${url}/api/processor/webhooks`, {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": factory.signPayload(ev.payload, WEBHOOK_SECRET) },
            body: ev.payload,
            timeoutMs: BOUND_MS,
          }),
        );
        calls.push(call);
        if (call.status === 200) acknowledged.add(i);
      } else {
        const n = giftNo++;
        const gift = {
          email: `overload-${run}-${n}@example.org`,
          key: `overload-${run}-${n}`,
          id: null as string | null,
          statuses: [] as (number | string)[],
        };
        gifts.push(gift);
        for (let attempt = 0; attempt < 5; attempt++) {
          const call = await timed(kind, () =>
            request(`${url}/api/donations`, {
              method: "POST",
              headers: { "idempotency-key": gift.key },
              json: { campaignId: plain.id, amount: 1_000 + (n % 50) * 100, email: gift.email, firstName: "Tuesday" },
              timeoutMs: BOUND_MS,
            }).then((a) => {
              if (a.status === 201) gift.id = a.body.id;
              return a;
            }),
          );
          calls.push(call);
          gift.statuses.push(call.status);
          if (call.status !== 503 && call.status !== "network" && call.status !== "timeout") break;
          await sleep(Math.min(5_000, Number(call.retryAfter) * 1000 || 500));
        }
      }
    };

    const pick = (): Kind => {
      let x = r.next();
      for (const [kind, share] of MIX) if ((x -= share) < 0) return kind;
      return "page";
    };

    // 1. Capacity: a handful of clients, each waiting for its answer, for MEASURE_SECONDS.
    const single: number[] = [];
    for (let i = 0; i < 10; i++) {
      const a = await request(`${url}/api/donations`, {
        method: "POST",
        json: { campaignId: plain.id, amount: 1_500, email: `single-${run}-${i}@example.org` },
      });
      expect(a.status, a.text).toBe(201);
      single.push(a.ms);
    }
    const singleMedian = [...single].sort((a, b) => a - b)[Math.floor(single.length / 2)];
    let measured = 0;
    const measureUntil = Date.now() + MEASURE_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (Date.now() < measureUntil) {
          await arrive(pick());
          measured++;
        }
      }),
    );
    const capacity = measured / MEASURE_SECONDS;
    calls.length = 0;
    const rate = capacity * FACTOR;

    // 2. Arrivals at FACTOR × capacity, answered or not, for SECONDS.
    const pending = new Set<Promise<void>>();
    let skipped = 0;
    const start = performance.now();
    let sent = 0;
    while (performance.now() - start < SECONDS * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * rate);
      for (; sent < due; sent++) {
        if (pending.size >= MAX_IN_FLIGHT) {
          skipped++;
          continue;
        }
        const p = arrive(pick()).finally(() => pending.delete(p));
        pending.add(p);
      }
      await sleep(5);
    }
    await Promise.all(pending);

    // 3. The processor redelivers what was not acknowledged (shed or not reached), until it is.
    const rest = deliveries.filter((_, i) => !acknowledged.has(i));
    const stats = await deliverAll(rest, { concurrency: 8, target: () => url, maxAttempts: 40, backoffMs: 200 });
    // The server logs its shed counts within a second of the last one.
    await sleep(1_500);

    // What the database says.
    const rows = (await file.database.db.execute(
      sql`select id, email from donations where email like ${`overload-${run}-%`}`,
    )) as unknown as {
      id: string;
      email: string;
    }[];
    const perEmail = new Map<string, string[]>();
    for (const row of rows) perEmail.set(row.email, [...(perEmail.get(row.email) ?? []), row.id]);
    const doubled = [...perEmail].filter(([, ids]) => ids.length > 1);
    const answered = gifts.filter((g) => g.id !== null);
    const lost = answered.filter((g) => !(perEmail.get(g.email) ?? []).includes(g.id!));
    const answeredEmails = new Set(answered.map((g) => g.email));
    const unanswered = [...perEmail.keys()].filter((email) => !answeredEmails.has(email));
    const { violations, recorded, emails } = await runOutcome(file, events);

    // The share shed per class, as the clients saw it and as the server counted it.
    const byKind = (kind: Kind) => calls.filter((c) => c.kind === kind);
    const share = (kind: Kind, f: (c: Call) => boolean) => {
      const cs = byKind(kind);
      return cs.length ? cs.filter(f).length / cs.length : 0;
    };
    const refused = (c: Call) => c.status === 503;
    const light = (c: Call) => c.status === 200 && c.shed === "pages";
    const summary = Object.fromEntries(
      (["page", "donation", "webhook", "report"] as Kind[]).map((k) => [
        k,
        {
          requests: byKind(k).length,
          refused: `${(share(k, refused) * 100).toFixed(1)}%`,
          ...(k === "page" ? { renderedLight: `${(share(k, light) * 100).toFixed(1)}%` } : {}),
        },
      ]),
    );
    const serverLine = file.instances
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"overload.shed"'))
      .pop();
    const server = serverLine
      ? (JSON.parse(serverLine.slice(serverLine.indexOf("{"))) as { shed: Record<string, number>; pagesLight: number })
      : null;
    const admitted = calls
      .filter((c) => c.kind === "donation" && c.status === 201)
      .map((c) => c.ms)
      .sort((a, b) => a - b);
    const p99 = admitted.length ? admitted[Math.min(admitted.length - 1, Math.floor(admitted.length * 0.99))] : 0;
    const p99Bound = PRIORITY_WAIT_MS + P99_FACTOR * singleMedian;
    console.info(
      `reliability/overload: capacity ${capacity.toFixed(1)} req/s (${MEASURE_SECONDS} s, 6 clients); single-client donation ${singleMedian.toFixed(0)} ms; ` +
        `offered ${rate.toFixed(1)} req/s for ${SECONDS} s (${sent} arrivals, ${skipped} skipped at the client's own ceiling); ` +
        `per class ${JSON.stringify(summary)}; server counted ${JSON.stringify(server)}; ` +
        `donations: ${gifts.length} attempts, ${answered.length} created, p99 of admitted ${p99.toFixed(0)} ms (bound ${p99Bound.toFixed(0)} ms); ` +
        `redelivered ${rest.length} events afterwards ${JSON.stringify(stats.statuses)}; violations ${violations.length}`,
    );

    // The money first.
    expect.soft(doubled.slice(0, 3), "no donation doubled").toEqual([]);
    expect.soft(lost.slice(0, 3), "every donation answered 201 is in the database").toEqual([]);
    expect.soft(unanswered.slice(0, 3), "every donation in the database was answered 201").toEqual([]);
    expect.soft(violations).toEqual([]);
    expect.soft(stats.unacknowledged, "every event acknowledged eventually").toEqual([]);
    expect.soft(recorded).toEqual({ missing: [], unexpected: [] });
    expect.soft(emails.duplicates).toBe(0);
    // Then the answers: every request answered in time, no 5xx but 503 with Retry-After, errors in the API's shape.
    const noAnswer = calls.filter((c) => c.status === "network" || c.status === "timeout");
    expect.soft(noAnswer.slice(0, 3), `every request answered within ${BOUND_MS} ms`).toEqual([]);
    const bad5xx = calls.filter((c) => typeof c.status === "number" && c.status >= 500 && !(c.status === 503 && c.retryAfter));
    expect.soft(bad5xx.slice(0, 3), "no 5xx but 503 with Retry-After").toEqual([]);
    const unexpected = calls.filter((c) => typeof c.status === "number" && c.status >= 400 && c.status !== 503);
    expect.soft(unexpected.slice(0, 3), "no refusal but the overload's 503").toEqual([]);
    expect.soft(calls.filter((c) => !c.shaped).slice(0, 3), "API errors in the JSON error shape").toEqual([]);
    // The order of shedding: donations and events no more often than page views and reports.
    const priorityShare = Math.max(share("donation", refused), share("webhook", refused));
    expect
      .soft(priorityShare, "donations and events shed no more than page views")
      .toBeLessThanOrEqual(share("page", (c) => refused(c) || light(c)));
    expect.soft(priorityShare, "donations and events shed no more than reports").toBeLessThanOrEqual(share("report", refused));
    expect.soft(calls.filter((c) => light(c) && c.donorRoll).length, "page views rendered light leave out the donor roll").toBe(0);
    expect
      .soft(calls.filter((c) => c.kind === "page" && c.status === 200 && !c.shed && !c.donorRoll).length, "full page views show it")
      .toBe(0);
    // The server's own counts agree with what the clients saw.
    if (server) {
      expect.soft(server.shed.reports).toBe(byKind("report").filter(refused).length);
      expect.soft(server.shed.api).toBe(0);
      expect.soft(server.pagesLight).toBe(byKind("page").filter(light).length);
      expect.soft(server.shed.pages).toBe(byKind("page").filter((c) => refused(c) || light(c)).length);
      expect.soft(server.shed.priority).toBe(calls.filter((c) => (c.kind === "donation" || c.kind === "webhook") && refused(c)).length);
    }
    // Admitted donations stay quick enough: a generous bound relative to one client's.
    expect.soft(admitted.length, "donations admitted").toBeGreaterThan(0);
    expect
      .soft(p99, `p99 of admitted donations within the priority queue's wait plus ${P99_FACTOR} × the single-client median`)
      .toBeLessThanOrEqual(p99Bound);
  }, 900_000);
});
