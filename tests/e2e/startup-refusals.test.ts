import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, freePort, startServer, type RunningServer } from "../helpers/server";

// The production server refuses a configuration that could take real money by accident or leak
// secrets, before it builds or serves anything: a non-zero exit and a message naming the variable.
// Refusals need no build (the environment is checked before Next.js loads); the allowed starts
// use the production build like the other end-to-end tests.
const root = path.resolve(__dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-refusals-"));
const SECRET = "a-nextauth-secret-of-at-least-32-characters";
const KEY_BASE64 = "Z29vZGZ1bmQtdGVzdC1rZXktMzItYnl0ZXMtbG9uZyE=";
const KEY_HEX = "676f6f6466756e642d746573742d6b65792d33322d62797465732d6c6f6e6721";

// A database of its own (the server migrates it and runs no worker), so the allowed starts on
// PostgreSQL touch nothing the other tests use.
const adminUrl = (() => {
  const u = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  u.pathname = "/postgres";
  return u.toString();
})();
const dbName = `goodfund_refusals_${process.pid}_${Date.now()}`;
const databaseUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

type Env = Record<string, string | undefined>;
/** Nothing from the test process's own configuration leaks in: each case states all it sets. */
const clean: Env = {
  DATABASE_URL: undefined,
  TEST_DATABASE_URL: undefined,
  PGLITE_DIR: undefined,
  GOODFUND_DATA_DIR: dataDir,
  PAYMENTS_MODE: undefined,
  STRIPE_SECRET_KEY: undefined,
  NEXTAUTH_SECRET: undefined,
  SECRETS_ENCRYPTION_KEY: undefined,
  WEB_CONCURRENCY: undefined,
  REDIS_URL: undefined,
  CRON_SECRET: undefined,
  DNS_RESOLVERS: undefined,
  WORKER_DISABLED: "1",
  LOG_LEVEL: "warn",
};

/** Runs a server script with `env` and waits for it to exit; a refusal must come before anything listens. */
async function refusedStart(script: "start.ts" | "main.ts", env: Env): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const port = await freePort();
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...clean, ...env, PORT: String(port), HOSTNAME: "127.0.0.1" })) {
    if (v !== undefined && k !== "VITEST" && !k.startsWith("VITEST_") && k !== "NODE_ENV") childEnv[k] = v;
  }
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(root, "server", script)], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: "pipe",
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (d) => (stdout += d));
  proc.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => proc.on("exit", (c) => resolve(c)));
  return { code, stderr, stdout };
}

const refusals: { name: string; env: Env; names: string[] }[] = [
  {
    name: "DATABASE_URL without PAYMENTS_MODE or STRIPE_SECRET_KEY",
    env: { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/unused", NEXTAUTH_SECRET: SECRET, SECRETS_ENCRYPTION_KEY: KEY_BASE64 },
    names: ["PAYMENTS_MODE", "STRIPE_SECRET_KEY"],
  },
  {
    name: "PAYMENTS_MODE=stripe without STRIPE_SECRET_KEY",
    env: { PAYMENTS_MODE: "stripe" },
    names: ["PAYMENTS_MODE=stripe", "STRIPE_SECRET_KEY"],
  },
  {
    name: "a NEXTAUTH_SECRET shorter than 32 characters",
    env: { NEXTAUTH_SECRET: "too-short-0123456789" },
    names: ["NEXTAUTH_SECRET"],
  },
  {
    name: "DATABASE_URL without SECRETS_ENCRYPTION_KEY",
    env: { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/unused", PAYMENTS_MODE: "sandbox", NEXTAUTH_SECRET: SECRET },
    names: ["SECRETS_ENCRYPTION_KEY"],
  },
  {
    name: "a SECRETS_ENCRYPTION_KEY that is not 32 bytes as base64 or hex",
    env: { SECRETS_ENCRYPTION_KEY: KEY_BASE64.slice(1) },
    names: ["SECRETS_ENCRYPTION_KEY"],
  },
  {
    name: "a CRON_SECRET shorter than 32 characters",
    env: { CRON_SECRET: "cron-secret-of-31-characters-xx" },
    names: ["CRON_SECRET"],
  },
  {
    name: "DNS_RESOLVERS that are not IP addresses with optional ports",
    env: { DNS_RESOLVERS: "1.1.1.1, dns.example.org:53" },
    names: ["DNS_RESOLVERS"],
  },
];

describe("npm start refuses a bad configuration before building or serving", () => {
  for (const r of refusals) {
    it(`exits non-zero naming ${r.names.join(" and ")}: ${r.name}`, async () => {
      const { code, stderr, stdout } = await refusedStart("start.ts", r.env);
      expect(code, stdout + stderr).not.toBe(0);
      for (const name of r.names) expect(stderr).toContain(name);
      expect(stdout).not.toMatch(/Building Goodfund|ready on/);
    });
  }

  it("the server itself (server/main.ts) refuses too, in one process and as a cluster (no worker restarted)", async () => {
    const bad = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/unused", NEXTAUTH_SECRET: SECRET, SECRETS_ENCRYPTION_KEY: KEY_BASE64 };
    for (const WEB_CONCURRENCY of ["1", "2"]) {
      const { code, stderr, stdout } = await refusedStart("main.ts", { ...bad, WEB_CONCURRENCY });
      expect(code, `WEB_CONCURRENCY=${WEB_CONCURRENCY}: ${stdout}${stderr}`).not.toBe(0);
      expect(stderr).toContain("PAYMENTS_MODE");
      expect(stderr).not.toContain("starting another");
      expect(stderr.match(/Goodfund cannot start/g)).toHaveLength(1);
    }
  });
});

describe("npm start accepts a complete configuration", () => {
  let server: RunningServer | undefined;
  let admin: ReturnType<typeof postgres>;

  beforeAll(async () => {
    admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    await ensureBuild();
  }, 900_000);

  afterAll(async () => {
    await server?.stop();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts on PostgreSQL with PAYMENTS_MODE=sandbox and a hex key; every page says Test mode; no mailbox, no demo sign-in", async () => {
    server = await startServer({
      ...clean,
      DATABASE_URL: databaseUrl,
      PAYMENTS_MODE: "sandbox",
      NEXTAUTH_SECRET: SECRET,
      SECRETS_ENCRYPTION_KEY: KEY_HEX,
    });
    const home = await (await fetch(server.url)).text();
    expect(home).toContain("Test mode");
    expect(home).toContain("no real payments are taken");
    // Local-only conveniences never exist on a PostgreSQL install, even for a loopback client.
    expect((await fetch(`${server.url}/sandbox/mailbox`)).status).toBe(404);
    const providers = await (await fetch(`${server.url}/api/auth/providers`)).json();
    expect(Object.keys(providers)).not.toContain("demo");
    const signin = await (await fetch(`${server.url}/signin`)).text();
    expect(signin).not.toContain("Continue as the demo organization");
    await server.stop();
    server = undefined;
  }, 120_000);

  it("starts on PostgreSQL with STRIPE_SECRET_KEY (Stripe mode) and shows no Test mode banner", async () => {
    server = await startServer({
      ...clean,
      DATABASE_URL: databaseUrl,
      STRIPE_SECRET_KEY: "sk_test_goodfund_refusals",
      NEXTAUTH_SECRET: SECRET,
      SECRETS_ENCRYPTION_KEY: KEY_BASE64,
    });
    for (const page of ["/", "/signin", "/docs"]) {
      const res = await fetch(`${server.url}${page}`);
      expect(res.status, page).toBe(200);
      expect(await res.text(), page).not.toContain("no real payments are taken");
    }
    await server.stop();
    server = undefined;
  }, 120_000);
});

describe("without its own server (next start), production needs TRUST_PROXY to tell clients apart", () => {
  const nextBin = path.join(root, "node_modules/next/dist/bin/next");
  const embedded = { ...clean, GOODFUND_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "goodfund-next-start-")), SEED_DEMO: "0" };

  /** `next start` with `env`; resolves once it exits, or once it serves (then it is stopped). */
  async function nextStart(env: Env): Promise<{ code: number | null; served: boolean; output: string }> {
    const port = await freePort();
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...embedded, ...env, NODE_ENV: "production" })) {
      if (v !== undefined && k !== "VITEST" && !k.startsWith("VITEST_")) childEnv[k] = v;
    }
    const proc = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: root,
      env: childEnv as NodeJS.ProcessEnv,
      stdio: "pipe",
    });
    let output = "";
    proc.stdout.on("data", (d) => (output += d));
    proc.stderr.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => proc.on("exit", (c) => resolve(c)));
    const deadline = Date.now() + 120_000;
    while (proc.exitCode === null && Date.now() < deadline) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
        await res.arrayBuffer();
        if (res.status === 200) {
          proc.kill("SIGTERM");
          await exited;
          return { code: null, served: true, output };
        }
      } catch {
        // not listening (yet)
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    if (proc.exitCode === null) proc.kill("SIGKILL");
    return { code: await exited, served: false, output };
  }

  beforeAll(() => ensureBuild(), 600_000);
  afterAll(() => rmSync(embedded.GOODFUND_DATA_DIR, { recursive: true, force: true }));

  it("refuses to start, naming TRUST_PROXY, when no proxy is trusted", async () => {
    const { code, served, output } = await nextStart({ TRUST_PROXY: "0" });
    expect(served, output).toBe(false);
    // It exits (Next.js alone would log the failed start-up hook and serve on), with the code of a refused configuration.
    expect(code, output).toBe(78);
    expect(output).toContain("Goodfund cannot start: TRUST_PROXY");
  }, 180_000);

  it("serves with TRUST_PROXY=1", async () => {
    const { served, output } = await nextStart({ TRUST_PROXY: "1" });
    expect(served, output).toBe(true);
  }, 180_000);
});
