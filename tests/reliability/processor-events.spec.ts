import { describe, expect, it } from "vitest";
import { deliverAll, giftsAndEvents, knob, redeliveries, rng, instancesForFile, runOutcome, expectAppliedOnce } from "./helpers";

/**
 * Exactly-once under the processor's at-least-once delivery: two real app instances (the
 * production build, `npm start`) on one fresh Postgres database receive N processor events about
 * donations made through the API, each delivered `RELIABILITY_COPIES` (3) times, shuffled, to
 * random instances, `RELIABILITY_CONCURRENCY` at a time; any answer but 2xx is redelivered, like
 * the processor does. Then: every event acknowledged, recorded once; every aggregate equal to
 * what the donations say; every email enqueued once.
 */
const EVENTS = knob("RELIABILITY_EVENTS", process.env.CI ? 600 : 2000);
const COPIES = knob("RELIABILITY_COPIES", 3);
const CONCURRENCY = knob("RELIABILITY_CONCURRENCY", 16);
const SEED = knob("RELIABILITY_SEED", Date.now() % 1_000_000);

const file = instancesForFile("events", { count: 2 });

describe("processor events delivered three times, in random order, to two instances", () => {
  it(`applies each of ${EVENTS} events once (seed ${SEED})`, async () => {
    const r = rng(SEED);
    const started = Date.now();
    const { gifts, events } = await giftsAndEvents(file.instances.url(0)!, file.fx, EVENTS, r);
    const deliveries = redeliveries(events, COPIES, r);
    const stats = await deliverAll(deliveries, { concurrency: CONCURRENCY, target: () => file.instances.url(r.int(2)) });
    const seconds = (Date.now() - started) / 1000;
    const outcome = await runOutcome(file, events);
    const { violations, emails } = outcome;
    console.info(
      `reliability/events: ${gifts.length} donations, ${events.length} events, ${stats.deliveries} deliveries, ` +
        `${stats.attempts} attempts ${JSON.stringify(stats.statuses)}, slowest ${stats.maxMs.toFixed(0)} ms, ` +
        `${seconds.toFixed(1)} s; emails ${JSON.stringify(emails.byTemplate)}; violations ${violations.length}; errors the instances logged: ${JSON.stringify(file.instances.errorSummary())}`,
    );
    expectAppliedOnce(stats, outcome, file.instances.output());
    // One admin notification per receipt (same transaction, same once-only rule).
    expect(emails.byTemplate["admin-notification"] ?? 0).toBe(emails.byTemplate.receipt ?? 0);
  }, 900_000);
});
