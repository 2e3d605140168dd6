import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { FullConfig } from "@playwright/test";
import os from "node:os";
import path from "node:path";
import { startOidcProvider } from "../helpers/oidc-provider";
import { startDnsServer } from "../helpers/dns-server";
import { ensureBuild, freePort, startServer } from "../helpers/server";
import { DEMO_HISTORY_SCALE } from "./demo-scale";

/** ensureBuild(), waiting out a build another process (`npm start`, the e2e suite) has under way. */
async function buildOnce(): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      return await ensureBuild();
    } catch (err) {
      if (!/Another next build process is already running/.test(String(err)) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 5_000));
    }
  }
}

/**
 * One real server per worker for the browser suite: `npm start`'s own command (server/start.ts)
 * on the production build, embedded PGlite in a fresh temporary directory, sandbox payments, the
 * demo seed, rate limits high enough for a test run, single sign-on through a real OpenID Connect
 * provider started here (tests/helpers/oidc-provider.ts), and custom-domain verification asking a
 * local DNS server that knows no record (tests/helpers/dns-server.ts). Each server's URL reaches
 * its worker through the environment (workers start after this and inherit it; support.ts's
 * serverUrl() picks the worker's own). The function returned is Playwright's global teardown: it
 * stops the servers, keeps their output in test-results/ and removes their directories.
 *
 * GOODFUND_E2E_URL already set: every worker uses that server instead (handy while writing tests).
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  if (process.env.GOODFUND_E2E_URL) return async () => {};
  await buildOnce();
  const servers = await Promise.allSettled(Array.from({ length: config.workers }, (_, i) => startOne(i)));
  const started = servers.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stopAll = async () => {
    mkdirSync(path.resolve(__dirname, "../../test-results"), { recursive: true });
    for (const [i, stop] of started.entries()) {
      // The server's own output (warnings and errors at LOG_LEVEL=warn), for a failure's post-mortem.
      writeFileSync(path.resolve(__dirname, `../../test-results/browser-server-${i}.log`), await stop());
    }
  };
  const failed = servers.find((s) => s.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}

/**
 * The server of the worker whose TEST_PARALLEL_INDEX is `index` (Playwright never runs two
 * workers with the same index at once): its URL in GOODFUND_E2E_URL_<index>, its data directory
 * in GOODFUND_E2E_DATA_DIR_<index>. Workers running side by side thus never see each other's
 * gifts, imports or audit entries. Answers how to stop it, which gives its output.
 */
async function startOne(index: number): Promise<() => Promise<string>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-browser-"));
  // The app's port is chosen first: the provider accepts only the app's own callback address.
  const port = await freePort();
  const oidc = await startOidcProvider(`http://localhost:${port}/api/auth/callback/oidc`);
  const dns = await startDnsServer();
  const cleanUp = async () => {
    await oidc.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dns.close();
  };
  const env = {
    DNS_RESOLVERS: dns.address,
    GOODFUND_DATA_DIR: dataDir,
    // Embedded and sandbox, whatever the calling shell (CI sets TEST_DATABASE_URL for vitest).
    DATABASE_URL: undefined,
    TEST_DATABASE_URL: undefined,
    PGLITE_DIR: undefined,
    NEXTAUTH_SECRET: undefined,
    NEXTAUTH_URL: undefined,
    APP_URL: undefined,
    REDIS_URL: undefined,
    UPSTASH_REDIS_REST_URL: undefined,
    UPSTASH_REDIS_REST_TOKEN: undefined,
    RATE_LIMIT_BACKEND: undefined,
    STRIPE_SECRET_KEY: undefined,
    PAYMENTS_MODE: undefined,
    SECRETS_ENCRYPTION_KEY: undefined,
    STRIPE_PUBLISHABLE_KEY: undefined,
    PROCESSOR_WEBHOOK_SECRET: undefined,
    RESEND_API_KEY: undefined,
    GITHUB_ID: undefined,
    GITHUB_SECRET: undefined,
    GOOGLE_CLIENT_ID: undefined,
    GOOGLE_CLIENT_SECRET: undefined,
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: oidc.clientId,
    OIDC_CLIENT_SECRET: oidc.clientSecret,
    OIDC_NAME: undefined,
    TRUST_PROXY: undefined,
    WORKER_DISABLED: undefined,
    SEED_DEMO: "1",
    DEMO_HISTORY_SCALE: String(DEMO_HISTORY_SCALE),
    LOG_LEVEL: "warn",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "100000",
    RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "100000",
    // Every browser test asks for its sign-in links from 127.0.0.1: one client, many people.
    SIGNIN_LINKS_PER_IP: "1000",
    DONOR_SIGNIN_LINKS_PER_IP: "1000",
  };
  let server;
  try {
    server = await startServer(env, port);
    // The app's own URL (APP_URL defaults to http://localhost:$PORT): links, redirects and the
    // session cookie all agree with the address the browser uses, as for someone running `npm start`.
    const url = `http://localhost:${server.port}`;
    await demoHistoryPlayed(url);
    process.env[`GOODFUND_E2E_URL_${index}`] = url;
    process.env[`GOODFUND_E2E_DATA_DIR_${index}`] = dataDir;
  } catch (err) {
    await server?.stop();
    await cleanUp();
    throw err;
  }
  const running = server;
  return async () => {
    await running.stop();
    await cleanUp();
    return running.output();
  };
}

/**
 * The server answers its first request only once the demo's history has played (the product's
 * promise, which tests/e2e/server.test.ts checks gift by gift): the demo's main campaign has
 * raised money already. Tests count totals before and after their own gifts from here on.
 */
async function demoHistoryPlayed(url: string): Promise<void> {
  const res = await fetch(`${url}/api/public/orgs/demo/campaigns/winter-meals`);
  const body = res.ok ? ((await res.json()) as { progress: { raisedAmountCents: number } }) : null;
  if (!body || body.progress.raisedAmountCents <= 0)
    throw new Error(`the demo's history had not played when the server answered (${res.status})`);
}
