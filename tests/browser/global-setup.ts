import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startOidcProvider } from "../helpers/oidc-provider";
import { startDnsServer } from "../helpers/dns-server";
import { ensureBuild, freePort, startServer } from "../helpers/server";
import { DEMO_HISTORY_SCALE } from "./demo-scale";

/**
 * One real server for the whole browser suite: `npm start`'s own command (server/start.ts) on
 * the production build, embedded PGlite in a fresh temporary directory, sandbox payments, the
 * demo seed, rate limits high enough for a test run, single sign-on through a real OpenID Connect
 * provider started here (tests/helpers/oidc-provider.ts), and custom-domain verification asking a
 * local DNS server that knows no record (tests/helpers/dns-server.ts). Its URL reaches the tests through
 * GOODFUND_E2E_URL (workers start after this and inherit the environment). The function
 * returned is Playwright's global teardown: it stops the server and removes the directory.
 *
 * GOODFUND_E2E_URL already set: use that server instead (handy while writing tests).
 */
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

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.GOODFUND_E2E_URL) return async () => {};
  await buildOnce();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-browser-"));
  // The app's port is chosen first: the provider accepts only the app's own callback address.
  const port = await freePort();
  const oidc = await startOidcProvider(`http://localhost:${port}/api/auth/callback/oidc`);
  const dns = await startDnsServer();
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
  } catch (err) {
    await oidc.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dns.close();
    throw err;
  }
  // The app's own URL (APP_URL defaults to http://localhost:$PORT): links, redirects and the
  // session cookie all agree with the address the browser uses, as for someone running `npm start`.
  process.env.GOODFUND_E2E_URL = `http://localhost:${server.port}`;
  await demoHistorySettled(process.env.GOODFUND_E2E_URL);
  process.env.GOODFUND_E2E_DATA_DIR = dataDir;
  return async () => {
    await server.stop();
    await oidc.close();
    // The server's own output (warnings and errors at LOG_LEVEL=warn), for a failure's post-mortem.
    mkdirSync(path.resolve(__dirname, "../../test-results"), { recursive: true });
    writeFileSync(path.resolve(__dirname, "../../test-results/browser-server.log"), server.output());
    rmSync(dataDir, { recursive: true, force: true });
    await dns.close();
  };
}

/**
 * The server plays the demo's history in the background after it starts; tests that count a
 * campaign's total before and after a gift need it finished. Waits until the demo's main
 * campaign's public total has stopped moving for a while (the history pauses between chunks for
 * far less), at most five minutes.
 */
async function demoHistorySettled(url: string): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  let last = { raised: -1, since: Date.now() };
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/api/public/orgs/demo/campaigns/winter-meals`).catch(() => null);
    const raised = res?.ok ? ((await res.json()) as { progress: { raisedAmountCents: number } }).progress.raisedAmountCents : -1;
    if (raised !== last.raised) last = { raised, since: Date.now() };
    else if (raised > 0 && Date.now() - last.since >= 12_000) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error("the demo's history did not finish playing within five minutes");
}
