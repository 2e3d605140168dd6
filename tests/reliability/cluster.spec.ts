import http from "node:http";
import { describe, expect, it } from "vitest";
import { childPids, cpuSecondsOf } from "../../bench/lib/app";
import {
  deliverAll,
  giftsAndEvents,
  knob,
  redeliveries,
  rng,
  serverPid,
  sleep,
  instancesForFile,
  runOutcome,
  expectAppliedOnce,
} from "./helpers";

/**
 * WEB_CONCURRENCY=2: server/main.ts runs as a node:cluster primary with two server processes
 * sharing one port. Both serve; processor events redelivered through the shared port apply once
 * whichever process takes them; a process killed with SIGKILL is replaced, and meanwhile the other
 * keeps serving; SIGTERM stops them all.
 */
const EVENTS = knob("RELIABILITY_CLUSTER_EVENTS", process.env.CI ? 300 : 1000);
const SEED = knob("RELIABILITY_SEED", Date.now() % 1_000_000);

const file = instancesForFile("cluster", { count: 1, env: { WEB_CONCURRENCY: "2" } });

describe("two server processes on one port (WEB_CONCURRENCY=2)", () => {
  it(`share the work, apply ${EVENTS} redelivered events once, replace a killed process, and stop on SIGTERM (seed ${SEED})`, async () => {
    const server = file.instances.servers[0]!;
    const primary = serverPid(server);
    const workers = childPids(primary);
    expect(workers).toHaveLength(2);
    const cpuBefore = workers.map((pid) => cpuSecondsOf(pid) ?? 0);

    const r = rng(SEED);
    const { events } = await giftsAndEvents(server.url, file.fx, EVENTS, r);
    const stats = await deliverAll(redeliveries(events, 3, r), { concurrency: 16, target: () => server.url });
    // Both processes did a share of it (the primary hands connections out round-robin).
    const worked = workers.map((pid, i) => (cpuSecondsOf(pid) ?? 0) - cpuBefore[i]);
    expect(
      worked.every((t) => t > 0),
      `CPU seconds per process: ${worked}`,
    ).toBe(true);

    const outcome = await runOutcome(file, events);
    expectAppliedOnce(stats, outcome, server.output().slice(-4000));

    // A process dies (its open connections with it): as soon as the primary has reaped it, new
    // connections go to the other, and the primary starts a replacement.
    process.kill(workers[0], "SIGKILL");
    for (let i = 0; i < 100 && childPids(primary).includes(workers[0]); i++) await sleep(50);
    const page = `${server.url}/api/public/orgs/${file.fx.org.slug}/campaigns/${file.fx.campaigns[0].slug}`;
    const during = await Promise.all(Array.from({ length: 20 }, () => statusOnNewConnection(page)));
    expect(during).toEqual(during.map(() => 200));
    let replaced: number[] = [];
    for (let i = 0; i < 120 && replaced.length < 2; i++) {
      await sleep(250);
      replaced = childPids(primary);
    }
    expect(replaced).toHaveLength(2);
    expect(replaced).not.toContain(workers[0]);
    const after = await Promise.all(Array.from({ length: 20 }, () => statusOnNewConnection(page)));
    expect(after).toEqual(after.map(() => 200));

    const started = Date.now();
    await server.stop();
    expect(Date.now() - started).toBeLessThan(8_000);
    const gone = replaced.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(gone, "no server process outlives SIGTERM").toEqual([]);
    console.info(
      `reliability/cluster: ${events.length} events, ${stats.attempts} attempts ${JSON.stringify(stats.statuses)}; CPU seconds per process ${worked.map((t) => t.toFixed(2))}; replacement ${replaced.find((p) => !workers.includes(p))}`,
    );
  }, 900_000);
});

/** GET on a connection of its own (no pooled socket that may still point at the killed process). */
function statusOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
  });
}
