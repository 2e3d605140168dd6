// Builds the production app when there is no build, or when a source file is newer than it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "db",
  "emails",
  "public",
  "next.config.ts",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "proxy.ts",
  "package-lock.json",
  "tsconfig.json",
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

/** True when `.next` holds a build at least as new as every source file. */
export function buildIsFresh(root = process.cwd()) {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.every((s) => newestMtime(path.join(root, s)) <= built);
}

/**
 * Builds unless fresh. Several processes may ask at once (parallel test files, two instances
 * started together): a lock directory makes them take turns, and whoever waited re-checks
 * freshness, so the app is built once. A lock left by a dead process is taken over.
 */
export function buildIfNeeded({ root = process.cwd(), stdio = "inherit", force = false } = {}) {
  if (!force && buildIsFresh(root)) return { built: false };
  const release = acquireBuildLock(root);
  try {
    if (!force && buildIsFresh(root)) return { built: false };
    return build(root, stdio);
  } finally {
    release();
  }
}

function build(root, stdio) {
  if (stdio === "inherit") console.log("Building Goodfund (takes a minute or two)…");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio,
    encoding: "utf8",
    // No type check here (next.config.ts): `npm run typecheck` and CI do it.
    env: { ...process.env, NODE_ENV: "production", GOODFUND_BUILD_TYPECHECK: "skip" },
  });
  if (r.status !== 0) {
    const detail = stdio === "inherit" ? "" : `\n${r.stdout}\n${r.stderr}`;
    throw new Error(`next build failed (exit ${r.status})${detail}`);
  }
  return { built: true };
}

const LOCK_WAIT_MS = 15 * 60_000;

function acquireBuildLock(root) {
  const dir = path.join(root, ".build-lock");
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, "pid"), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    if (!holderAlive(dir)) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`waited ${LOCK_WAIT_MS / 60_000} min for another build (${dir})`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
}

function holderAlive(dir) {
  let pid;
  try {
    pid = Number(readFileSync(path.join(dir, "pid"), "utf8"));
  } catch {
    return true; // just created, pid not written yet
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
