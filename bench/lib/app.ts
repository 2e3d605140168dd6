import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, createWriteStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The repository this bench belongs to. */
export const repoRoot = path.resolve(__dirname, "../..");

/**
 * Where the app is built and served from. The repository itself by default (what `npm start`
 * serves); with BENCH_SNAPSHOT=1 a private copy of its sources (node_modules linked), so that
 * other people rebuilding `.next` in a busy shared tree cannot swap the build under a running
 * measurement. BENCH_APP_DIR names an existing copy to reuse.
 */
export function appDir(log: (s: string) => void): { dir: string; cleanup: () => void } {
  if (process.env.BENCH_APP_DIR) return { dir: path.resolve(process.env.BENCH_APP_DIR), cleanup: () => {} };
  if (process.env.BENCH_SNAPSHOT !== "1") return { dir: repoRoot, cleanup: () => {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), "goodfund-bench-app-"));
  for (const name of readdirSync(repoRoot)) {
    if ([".next", ".data", ".git", "node_modules", "bench", "coverage", "test-results"].includes(name)) continue;
    cpSync(path.join(repoRoot, name), path.join(dir, name), { recursive: true });
  }
  // Turbopack refuses a node_modules symlink that leaves the project root; a hard-linked copy is cheap.
  const r = spawnSync("cp", ["-al", path.join(repoRoot, "node_modules"), path.join(dir, "node_modules")]);
  if (r.status !== 0) symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
  log(`app snapshot in ${dir}`);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `npm start`'s build step: builds when `.next` is missing or older than a source (scripts/build-if-needed.mjs). */
export async function ensureBuild(dir: string): Promise<{ built: boolean; seconds: number }> {
  const started = Date.now();
  const { buildIfNeeded } = (await import(path.join(dir, "scripts/build-if-needed.mjs"))) as {
    buildIfNeeded: (o: { root: string; stdio: "pipe" | "inherit" }) => { built: boolean };
  };
  const { built } = buildIfNeeded({ root: dir, stdio: "pipe" });
  return { built, seconds: (Date.now() - started) / 1000 };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export type Server = {
  url: string;
  port: number;
  proc: ChildProcess;
  /** PID of server/main.ts (the process that serves; `proc` is server/start.ts, its parent). */
  serverPid: () => number | null;
  output: () => string;
  stop: () => Promise<void>;
};

/** The children of a process (Linux). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resident memory of a process in bytes (VmRSS), or null when it is gone. */
export function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Total CPU time (user + system) of a process in seconds, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Starts `node --import tsx server/start.ts` (what `npm start` runs) in `dir` and waits until it answers.
 * With `nodeArgs` (profiling: `--cpu-prof`, which NODE_OPTIONS refuses) it runs what start.ts
 * runs once the build is there, `NODE_ENV=production node <nodeArgs> --import tsx server/main.ts`, itself.
 */
export async function startServer(dir: string, env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env, PORT: String(port), HOSTNAME: "127.0.0.1" })) {
    if (v !== undefined && k !== "NODE_ENV") childEnv[k] = v;
  }
  const direct = nodeArgs.length > 0;
  if (direct) childEnv.NODE_ENV = "production";
  const proc = spawn(
    process.execPath,
    direct ? [...nodeArgs, "--import", "tsx", path.join(dir, "server/main.ts")] : ["--import", "tsx", path.join(dir, "server/start.ts")],
    {
      cwd: dir,
      env: childEnv as NodeJS.ProcessEnv,
      stdio: "pipe",
    },
  );
  let out = "";
  const keep = (d: Buffer) => {
    out += d;
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  proc.stdout!.on("data", keep);
  proc.stderr!.on("data", keep);
  // BENCH_SERVER_LOG=<file>: the server's whole output (with --trace-gc, its collections) kept there.
  if (process.env.BENCH_SERVER_LOG) {
    const file = createWriteStream(process.env.BENCH_SERVER_LOG, { flags: "a" });
    proc.stdout!.pipe(file);
    proc.stderr!.pipe(file);
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/openapi.json`);
      await res.arrayBuffer();
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    proc,
    serverPid: () => (proc.pid ? (direct ? proc.pid : (childPids(proc.pid)[0] ?? null)) : null),
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
        proc.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        proc.kill("SIGTERM");
      }),
  };
}

export function fileExists(p: string): boolean {
  return existsSync(p);
}

/**
 * CPU seconds used so far by the Postgres backends serving `database` (their process titles name
 * it: `postgres: 15/main: postgres <database> 127.0.0.1(…) idle`). Backends that exited meanwhile
 * are not counted, so take deltas over periods where the pools stay open.
 */
export function postgresCpuSeconds(database: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmd.startsWith("postgres: ") || !cmd.includes(` ${database} `)) continue;
      total += cpuSecondsOf(Number(entry)) ?? 0;
    } catch {
      // gone
    }
  }
  return total;
}

/**
 * The heap a server holds, from the lines `node --trace-gc` prints to its stdout: after each full
 * (mark-compact) collection, `Mark-Compact 210.3 (230.1) -> 150.2 (231.0) MB`, the second figure
 * is what survived, i.e. what the process keeps. Recorded per phase, named by the caller.
 */
export function fullGcLiveHeap(proc: ChildProcess) {
  const seen: { phase: string; at: number; mib: number }[] = [];
  let partial = "";
  const onData = (d: Buffer) => {
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const m = /Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/.exec(line);
      if (m) seen.push({ phase: heap.phase, at: Date.now(), mib: Number(m[1]) });
    }
  };
  proc.stdout?.on("data", onData);
  const max = (xs: number[]) => (xs.length === 0 ? null : Math.max(...xs));
  const heap = {
    /** The phase the next collections are counted in ("check", then "apply"). */
    phase: "check",
    stop: () => proc.stdout?.off("data", onData),
    /** Null without `--trace-gc` (no line seen); else the largest live heap per phase, the apply's by halves. */
    summary() {
      if (seen.length === 0) return null;
      const check = seen.filter((s) => s.phase === "check").map((s) => s.mib);
      const apply = seen.filter((s) => s.phase === "apply");
      const mid = apply.length > 0 ? (apply[0].at + apply[apply.length - 1].at) / 2 : 0;
      const first = max(apply.filter((s) => s.at <= mid).map((s) => s.mib));
      const second = max(apply.filter((s) => s.at > mid).map((s) => s.mib));
      const f = (v: number | null) => (v === null ? "none" : `${v.toFixed(0)} MiB`);
      return {
        fullGcs: seen.length,
        checkMaxMiB: max(check),
        applyFirstHalfMaxMiB: first,
        applySecondHalfMaxMiB: second,
        text: `${seen.length} full GCs; at most ${f(max(check))} while checking, ${f(first)} in the apply's first half and ${f(second)} in its second`,
      };
    },
  };
  return heap;
}
