import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { writeApiPart } from "./results-file";

/**
 * The performance goals (bench/README.md, "Goals"), each judged on figures of the same run, and
 * bench/RESULTS.md: a table of the last three runs (machine, load average, date, each goal's
 * figure), rewritten after every run from the JSON kept at its end.
 */

export type GoalRow = {
  name: string;
  m: { rps: number; p99: number; errors: number; seconds: number } | null;
  ceiling?: { name: string; rps: number; ratio: number };
  extra?: Record<string, unknown>;
  violations?: number;
};

export type Goal = { id: string; text: string; figure: string; met: boolean | null };

const pct = (r: number) => `${(r * 100).toFixed(0)} %`;
const find = (rows: GoalRow[], prefix: string) => rows.find((r) => r.name.startsWith(prefix) && r.m);

/** Each goal with this run's figure and MET / NOT MET (null: the scenario did not run). */
export function judgeGoals(rows: GoalRow[]): Goal[] {
  const goals: Goal[] = [];
  const ratioGoal = (id: string, text: string, prefix: string, min: number) => {
    const r = find(rows, prefix);
    goals.push({
      id,
      text,
      figure: r?.ceiling ? `${pct(r.ceiling.ratio)} of ${r.ceiling.name} (${r.m!.rps.toFixed(0)}/s)` : "n/a",
      met: r?.ceiling ? r.ceiling.ratio >= min && r.m!.errors === 0 && (r.violations ?? 0) === 0 : null,
    });
  };
  ratioGoal("1a", "webhooks spread ≥ 50 % of min(framework, DB)", "webhooks payment_intent.succeeded, spread", 0.5);
  ratioGoal("1b", "webhooks hot ≥ 50 % of min(framework, DB)", "webhooks payment_intent.succeeded, one hot", 0.5);
  ratioGoal("2a", "POST /api/donations ≥ 35 % of framework", "POST /api/donations (sandbox", 0.35);
  const paced = find(rows, "POST /api/donations, ≤ 50 connections");
  goals.push({
    id: "2b",
    text: "POST /api/donations p99 < 50 ms paced at half its rate",
    figure: paced ? `p99 ${paced.m!.p99.toFixed(1)} ms` : "n/a",
    met: paced ? paced.m!.p99 < 50 && paced.m!.errors === 0 : null,
  });
  ratioGoal("3", "public campaign view (popular) ≥ 60 % of framework", "GET public campaign view, popular", 0.6);
  for (const [id, label, max] of [
    ["4a", "90-day window", 100],
    ["4b", "all time", 60],
  ] as const) {
    const r = rows.find((x) => x.name.startsWith("GET reports/summary") && x.name.includes(label) && x.m);
    goals.push({
      id,
      text: `report summary, ${label}, p99 < ${max} ms`,
      figure: r ? `p99 ${r.m!.p99.toFixed(1)} ms` : "n/a",
      met: r ? r.m!.p99 < max && r.m!.errors === 0 : null,
    });
  }
  const exp = find(rows, "CSV export,");
  const full = exp?.extra?.full as { rows: number; seconds: number } | undefined;
  const constant = exp?.extra?.constantMemory as boolean | undefined;
  goals.push({
    id: "5",
    text: "CSV export of 1 M rows < 10 s, constant memory",
    figure: full ? `${full.rows} rows in ${full.seconds.toFixed(1)} s${constant === false ? ", memory grew" : ""}` : "n/a",
    met: full ? full.seconds < 10 && full.rows >= 1_000_000 && constant !== false && exp!.m!.errors === 0 : null,
  });
  const two = find(rows, "framework ceiling, 2 instances");
  goals.push({
    id: "6",
    text: "two server processes: both ratios reported (informative)",
    figure: two?.ceiling ? `framework ×${two.ceiling.ratio.toFixed(2)} with 2 instances` : "n/a",
    met: null,
  });
  const e2e = find(rows, "end to end");
  goals.push({
    id: "7",
    text: "≥ 200 complete donations/s, invariants exact",
    figure: e2e ? `${e2e.m!.rps.toFixed(0)}/s` : "n/a",
    met: e2e ? e2e.m!.rps >= 200 && e2e.m!.errors === 0 && (e2e.violations ?? 0) === 0 : null,
  });
  return goals;
}

export function printGoals(goals: Goal[]) {
  console.log("\nGoals (bench/README.md), against this run's own ceilings:");
  for (const g of goals) {
    const verdict = g.met === null ? "n/a    " : g.met ? "MET    " : "NOT MET";
    console.log(`  ${verdict}  ${g.id.padEnd(3)} ${g.text}: ${g.figure}`);
  }
}

type Run = { when: string; machine: string; load: string; config: string; goals: Goal[] };
const MARK = "<!-- bench-runs ";

/** Adds this run to bench/RESULTS.md and rewrites its table from the last three runs. */
export function recordRun(file: string, goals: Goal[], config: Record<string, unknown>) {
  let runs: Run[] = [];
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8");
    const at = text.indexOf(MARK);
    if (at >= 0) {
      try {
        runs = JSON.parse(text.slice(at + MARK.length, text.indexOf(" -->", at))) as Run[];
      } catch {
        runs = [];
      }
    }
  }
  const cpus = os.cpus();
  runs.push({
    when: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    machine: `${cpus.length} × ${cpus[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
    config: Object.entries(config)
      .map(([k, v]) => `${k}=${v}`)
      .join(" "),
    goals,
  });
  runs = runs.slice(-3);
  const ids = goals.map((g) => g.id);
  const cell = (r: Run, id: string) => {
    const g = r.goals.find((x) => x.id === id);
    if (!g) return "";
    return `${g.figure}${g.met === null ? "" : g.met ? " — MET" : " — NOT MET"}`.replace(/\|/g, "\\|");
  };
  const lines = [
    "# Bench results",
    "",
    "Written by `npm run bench` (bench/lib/goals.ts): the last three runs, newest last. Figures are",
    "only comparable within a run and on a quiet machine (see the load average). What each goal",
    "means and how it is measured: bench/README.md.",
    "",
    `| goal | ${runs.map((r) => r.when).join(" | ")} |`,
    `| --- | ${runs.map(() => "---").join(" | ")} |`,
    `| machine | ${runs.map((r) => r.machine).join(" | ")} |`,
    `| load average (1/5/15 min, at the end) | ${runs.map((r) => r.load).join(" | ")} |`,
    `| settings | ${runs.map((r) => r.config).join(" | ")} |`,
    ...ids.map((id) => `| ${id}: ${goals.find((g) => g.id === id)!.text} | ${runs.map((r) => cell(r, id)).join(" | ")} |`),
    "",
    `${MARK}${JSON.stringify(runs)} -->`,
    "",
  ];
  // The pages bench's section (bench/pages.ts) stays as it was.
  writeApiPart(file, lines.join("\n"));
}
