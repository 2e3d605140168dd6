import { describe, expect, it } from "vitest";
import { deliverAll, giftsAndEvents, knob, redeliveries, rng, sleep, instancesForFile, runOutcome, expectAppliedOnce } from "./helpers";

/**
 * An instance killed with SIGKILL in the middle of the event stream (no shutdown handler, its
 * open transactions cut) and started again while the processor redelivers what was not
 * acknowledged: nothing lost, nothing counted twice.
 */
const EVENTS = knob("RELIABILITY_EVENTS", process.env.CI ? 600 : 2000);
const COPIES = knob("RELIABILITY_COPIES", 3);
const CONCURRENCY = knob("RELIABILITY_CONCURRENCY", 16);
const SEED = knob("RELIABILITY_SEED", Date.now() % 1_000_000);

const file = instancesForFile("crash", { count: 2, setUpOn: 1 });

describe("an instance killed with SIGKILL mid-stream and restarted", () => {
  it(`loses nothing and counts nothing twice (seed ${SEED})`, async () => {
    const r = rng(SEED);
    const { events } = await giftsAndEvents(file.instances.url(1)!, file.fx, EVENTS, r);
    const deliveries = redeliveries(events, COPIES, r);

    let acknowledged = 0;
    let failedWhileDown = 0;
    let killedAt = 0;
    let restartedAt = 0;
    let goneAt = 0;
    const killAfter = Math.floor(deliveries.length * 0.35);
    const chaos = (async () => {
      while (acknowledged < killAfter) await sleep(20);
      killedAt = Date.now();
      await file.instances.kill(0);
      goneAt = Date.now();
      await sleep(1_000); // the processor keeps delivering to the dead address meanwhile
      await file.instances.restart(0);
      restartedAt = Date.now();
    })();

    const stats = await deliverAll(deliveries, {
      concurrency: CONCURRENCY,
      // The instance a delivery goes to is picked per attempt; a dead slot's address refuses.
      target: () => file.instances.url(r.int(2)) ?? "http://127.0.0.1:9",
      onAttempt: (a) => {
        if (a.status === 200) acknowledged++;
        else if (killedAt && !restartedAt) failedWhileDown++;
      },
    });
    await chaos;

    const outcome = await runOutcome(file, events);
    const { violations, emails } = outcome;
    console.info(
      `reliability/crash: ${events.length} events, ${stats.deliveries} deliveries, ${stats.attempts} attempts ${JSON.stringify(stats.statuses)}; ` +
        `killed after ${killAfter} acknowledgements, gone in ${goneAt - killedAt} ms, serving again ${((restartedAt - killedAt) / 1000).toFixed(1)} s after the kill, ` +
        `${failedWhileDown} attempts failed meanwhile; emails ${JSON.stringify(emails.byTemplate)}; violations ${violations.length}; errors the instances logged: ${JSON.stringify(file.instances.errorSummary())}`,
    );
    expect(killedAt).toBeGreaterThan(0);
    expectAppliedOnce(stats, outcome, file.instances.output());
    expect(emails.byTemplate["admin-notification"] ?? 0).toBe(emails.byTemplate.receipt ?? 0);
  }, 900_000);
});
