import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "../..");

/** Builds the production app unless `.next` is newer than every source (what `npm start` does). */
export async function ensureBuild(): Promise<void> {
  // @ts-expect-error plain ESM script without type declarations
  const { buildIfNeeded } = await import("../../scripts/build-if-needed.mjs");
  buildIfNeeded({ root, stdio: "pipe" });
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

type Env = Record<string, string | undefined>;

/** The test process's environment with `env` applied (undefined removes a variable), minus vitest's own. */
function childEnvOf(env: Env): NodeJS.ProcessEnv {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) {
    if (v !== undefined && k !== "VITEST" && !k.startsWith("VITEST_") && k !== "NODE_ENV") out[k] = v;
  }
  return out as NodeJS.ProcessEnv;
}

export type RunningServer = {
  url: string;
  port: number;
  proc: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

/**
 * Spawns `node --import tsx <args>` in the project with `env` on port `port`, collecting its
 * output, and waits until `ready()` says it serves (or it exits, or `timeoutMs` passes: then it is
 * stopped and the error carries its output).
 */
async function spawnServer(
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  ready: (url: string, output: string) => Promise<boolean>,
  timeoutMs: number,
): Promise<RunningServer> {
  const proc = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: root, env, stdio: "pipe" });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const server: RunningServer = {
    url,
    port,
    proc,
    output: () => out,
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill(signal);
      }),
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}):\n${out}`);
    if (await ready(url, out)) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Runs `npm start`'s command (`node --import tsx server/start.ts`) with the given environment and waits until it serves. */
export async function startServer(env: Env, fixedPort?: number): Promise<RunningServer> {
  const port = fixedPort ?? (await freePort());
  const childEnv = childEnvOf({ LOG_LEVEL: "warn", ...env, PORT: String(port), HOSTNAME: "127.0.0.1" });
  const answers = (url: string) =>
    fetch(`${url}/api/openapi.json`).then(
      (res) => res.status < 500,
      () => false, // not listening yet
    );
  return spawnServer([path.join(root, "server/start.ts")], childEnv, port, answers, 90_000);
}

/** `npm run token` as a user would run it. */
export function cliToken(email: string, env: Env): string {
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/token.ts", "--email", email], {
    cwd: root,
    env: childEnvOf(env),
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`token script failed: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Next.js runs one development server per project: a second `next dev` in the same directory exits
 * at once ("Another next dev server is already running"). So the test files that start `npm run
 * dev`'s server take turns: each holds this lock directory from before its server starts until it
 * has exited. A lock whose holder process is gone is taken over.
 */
const DEV_LOCK = path.join(os.tmpdir(), `goodfund-dev-server-${createHash("sha256").update(root).digest("hex").slice(0, 12)}.lock`);

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

async function takeDevLock(deadline: number): Promise<void> {
  for (;;) {
    try {
      mkdirSync(DEV_LOCK);
      writeFileSync(path.join(DEV_LOCK, "pid"), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(path.join(DEV_LOCK, "pid"), "utf8"));
    } catch {
      // Taken a moment ago, its holder not written yet.
    }
    if (holder && !isAlive(holder)) rmSync(DEV_LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`another test's development server still holds ${DEV_LOCK}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * What `npm run dev` runs (`server/main.ts --dev`: the production server around Next.js's
 * development mode), with `env` over the test process's (undefined removes a variable), once it
 * says it is ready. One at a time (DEV_LOCK): `stop()` ends it and lets the next one start.
 */
export async function startDevServer(env: Env): Promise<RunningServer> {
  await takeDevLock(Date.now() + 480_000);
  const release = () => rmSync(DEV_LOCK, { recursive: true, force: true });
  try {
    const port = await freePort();
    const childEnv = childEnvOf({ ...env, PORT: String(port), HOSTNAME: "127.0.0.1" });
    const saysReady = async (_url: string, output: string) => /Goodfund is ready on/.test(output);
    const server = await spawnServer([path.join(root, "server/main.ts"), "--dev"], childEnv, port, saysReady, 240_000);
    return { ...server, stop: (signal) => server.stop(signal).finally(release) };
  } catch (err) {
    release();
    throw err;
  }
}
