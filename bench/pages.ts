// `npm run bench:pages`: Lighthouse (mobile) over the donate page, a gift's thank-you page and the
// dashboard's overview, on the production build with the demo data, each figure against the
// pages' goals. See bench/README.md, "Pages".
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { appDir, ensureBuild, repoRoot, startServer, type Server } from "./lib/app";
import { writePagesPart } from "./lib/results-file";

const num = (name: string, fallback: number) => {
  const v = process.env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
};

const RUNS = num("BENCH_PAGES_RUNS", 3);
/** Comma list of the pages to measure (`donate`, `thank-you`, `dashboard`); all by default. A partial run leaves bench/RESULTS.md alone. */
const ONLY = process.env.BENCH_PAGES_ONLY ? new Set(process.env.BENCH_PAGES_ONLY.split(",").map((s) => s.trim())) : null;
/** A directory that receives each run's whole Lighthouse report (JSON), to see what a figure is made of. */
const REPORTS = process.env.BENCH_PAGES_REPORTS || null;
const CHROME = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DEMO = { org: "demo", campaign: "winter-meals" } as const;

/** The goals (issue #34), judged on the median of the runs. */
const PAGE_GOALS = {
  performance: 98,
  lcpMs: 1500,
  tbtMs: 50,
  /** CLS as Lighthouse shows it, to three decimals. */
  cls: 0,
  /** JavaScript on the wire (compressed) before the donor reaches the card step: the donate page only. */
  donateJsKiB: 120,
} as const;

type Figures = { performance: number; lcpMs: number; tbtMs: number; cls: number; fcpMs: number; jsBytes: number; jsRequests: number };
type PageResult = { name: string; path: string; runs: Figures[]; median: Figures; jsGoal: boolean };

const T0 = Date.now();
const log = (s: string) => console.log(`[bench:pages ${((Date.now() - T0) / 1000).toFixed(0).padStart(4)} s] ${s}`);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The demo owner's session cookie: the sign-in page's one-click sandbox sign-in (next-auth's `demo` provider), as the browser tests do it. */
async function demoSessionCookie(url: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${url}/api/auth/callback/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar, origin: url },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${url}/dashboard/${DEMO.org}`, json: "true" }),
  });
  await res.arrayBuffer();
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => /^(__Secure-)?next-auth\.session-token=/.test(c));
  if (!session) throw new Error(`the demo sign-in gave no session cookie (HTTP ${res.status})`);
  return session;
}

async function json<T>(res: Response, want: number): Promise<T> {
  const text = await res.text();
  if (res.status !== want) throw new Error(`${res.url}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** A paid sandbox gift through the public calls the donate and payment pages make (as tests/browser/support.ts giveThroughApi); its thank-you path. */
async function giveThroughApi(url: string): Promise<string> {
  const view = await json<{ campaign?: { id: string }; id?: string }>(
    await fetch(`${url}/api/public/orgs/${DEMO.org}/campaigns/${DEMO.campaign}`),
    200,
  );
  const campaignId = view.campaign?.id ?? view.id;
  const post = (p: string, body: unknown) =>
    fetch(`${url}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const created = await json<{ id: string; clientSecret: string }>(
    await post("/api/donations", {
      campaignId,
      amount: 2500,
      email: `bench-pages.${Date.now().toString(36)}@example.org`,
      firstName: "Lighthouse",
      lastName: "Bench",
    }),
    201,
  );
  const paid = await json<{ status: string }>(
    await post("/api/sandbox/payments/confirm", { clientSecret: created.clientSecret, cardNumber: "4242424242424242" }),
    200,
  );
  if (paid.status !== "SUCCEEDED") throw new Error(`the sandbox gift ended ${paid.status}`);
  return `/o/${DEMO.org}/donate/${DEMO.campaign}/thank-you?donation=${encodeURIComponent(created.id)}`;
}

/**
 * The server plays the demo's history before it says it is ready; this waits until the main
 * campaign's total has stopped moving for a few seconds all the same (as the browser tests do),
 * so no run measures a page while the worker is busy.
 */
async function demoSettled(url: string): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  let last = { raised: -1, since: Date.now() };
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/api/public/orgs/${DEMO.org}/campaigns/${DEMO.campaign}`).catch(() => null);
    const raised = res?.ok ? ((await res.json()) as { progress: { raisedAmountCents: number } }).progress.raisedAmountCents : -1;
    if (raised !== last.raised) last = { raised, since: Date.now() };
    else if (raised > 0 && Date.now() - last.since >= 5_000) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error("the demo's history did not settle within five minutes");
}

type LighthouseModule = typeof import("lighthouse");
type ChromeLauncher = typeof import("chrome-launcher");

/** The Chromium of the run under way, stopped with the bench if it is interrupted. */
let runningChrome: { kill: () => void } | null = null;

/** One Lighthouse run (its default config: mobile, simulated throttling), performance only, on a fresh Chromium. */
async function lighthouseRun(
  lh: LighthouseModule,
  launcher: ChromeLauncher,
  url: string,
  headers: Record<string, string>,
  reportName: string,
): Promise<Figures> {
  const chrome = await launcher.launch({
    chromePath: CHROME,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    logLevel: "silent",
  });
  runningChrome = chrome;
  try {
    const result = await lh.default(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      disableFullPageScreenshot: true,
      ...(Object.keys(headers).length > 0 ? { extraHeaders: headers } : {}),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (REPORTS) {
      mkdirSync(REPORTS, { recursive: true });
      writeFileSync(path.join(REPORTS, `${reportName}.json`), JSON.stringify(lhr));
    }
    const audit = (id: string) => {
      const v = lhr.audits[id]?.numericValue;
      if (typeof v !== "number") throw new Error(`Lighthouse audit ${id} has no value for ${url}`);
      return v;
    };
    const requests = (lhr.audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)
      ?.items;
    const scripts = (requests ?? []).filter((r) => r.resourceType === "Script");
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: audit("largest-contentful-paint"),
      tbtMs: audit("total-blocking-time"),
      cls: audit("cumulative-layout-shift"),
      fcpMs: audit("first-contentful-paint"),
      jsBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      jsRequests: scripts.length,
    };
  } finally {
    chrome.kill();
    runningChrome = null;
  }
}

const kib = (bytes: number) => bytes / 1024;
const verdict = (met: boolean) => (met ? "MET" : "NOT MET");

function judge(p: PageResult) {
  const m = p.median;
  const rows: { name: string; figure: string; goal: string; met: boolean | null }[] = [
    { name: "performance", figure: `${m.performance}`, goal: `≥ ${PAGE_GOALS.performance}`, met: m.performance >= PAGE_GOALS.performance },
    { name: "LCP", figure: `${(m.lcpMs / 1000).toFixed(2)} s`, goal: `≤ ${PAGE_GOALS.lcpMs / 1000} s`, met: m.lcpMs <= PAGE_GOALS.lcpMs },
    { name: "TBT", figure: `${m.tbtMs.toFixed(0)} ms`, goal: `≤ ${PAGE_GOALS.tbtMs} ms`, met: m.tbtMs <= PAGE_GOALS.tbtMs },
    { name: "CLS", figure: m.cls.toFixed(3), goal: `${PAGE_GOALS.cls}`, met: Math.round(m.cls * 1000) / 1000 <= PAGE_GOALS.cls },
    {
      name: p.jsGoal ? "JS before the card step" : "JS",
      figure: `${kib(m.jsBytes).toFixed(1)} KiB (${m.jsRequests} files)`,
      goal: p.jsGoal ? `≤ ${PAGE_GOALS.donateJsKiB} KiB` : "",
      met: p.jsGoal ? kib(m.jsBytes) <= PAGE_GOALS.donateJsKiB : null,
    },
  ];
  return rows;
}

function print(results: PageResult[]) {
  console.log(`\nLighthouse ${lighthouseVersion}, mobile preset, median of ${RUNS} runs per page:\n`);
  for (const p of results) {
    console.log(`${p.name}  (${p.path})`);
    for (const r of judge(p)) {
      const mark = r.met === null ? "       " : r.met ? "MET    " : "NOT MET";
      console.log(`  ${mark}  ${r.name.padEnd(24)} ${r.figure.padEnd(24)} ${r.goal}`);
    }
    const each = p.runs.map((f) => `${f.performance}/${(f.lcpMs / 1000).toFixed(2)} s/${f.tbtMs.toFixed(0)} ms`).join(", ");
    console.log(`           runs (performance/LCP/TBT): ${each}`);
  }
}

function record(results: PageResult[]) {
  const cpus = os.cpus();
  const when = new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC";
  const machine = `${cpus.length} × ${cpus[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const cell = (r: { figure: string; met: boolean | null }) => `${r.figure}${r.met === null ? "" : ` — ${verdict(r.met)}`}`;
  const lines = [
    "## Pages (Lighthouse)",
    "",
    `Written by \`npm run bench:pages\` (bench/pages.ts): Lighthouse ${lighthouseVersion}'s mobile preset (simulated`,
    `throttling), the median of ${RUNS} runs of each figure, on the production build with the demo data. The last run:`,
    `${when}, ${machine}, load average ${load} (1/5/15 min, at the end). What is measured and how: bench/README.md.`,
    "",
    "| page | performance (≥ 98) | LCP (≤ 1.5 s) | TBT (≤ 50 ms) | CLS (0) | JS on the wire (≤ 120 KiB before the card step) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...results.map((p) => `| ${p.name} (\`${p.path.replace(/donation=[^&]+/, "donation=…")}\`) | ${judge(p).map(cell).join(" | ")} |`),
  ];
  writePagesPart(path.join(repoRoot, "bench/RESULTS.md"), lines.join("\n"));
}

let lighthouseVersion = "";

async function main() {
  const lh = (await import("lighthouse")) as LighthouseModule;
  const launcher = (await import("chrome-launcher")) as ChromeLauncher;
  lighthouseVersion = (JSON.parse(readFileSync(path.join(repoRoot, "node_modules/lighthouse/package.json"), "utf8")) as { version: string })
    .version;
  log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} on ${os.cpus().length} cores; ${RUNS} runs a page`,
  );

  const app = appDir(log);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-bench-pages-"));
  let server: Server | undefined;
  const cleanup = async () => {
    runningChrome?.kill();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    app.cleanup();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  try {
    const build = await ensureBuild(app.dir);
    log(build.built ? `production build made in ${build.seconds.toFixed(0)} s` : "production build is up to date");
    // What `npm start` runs on a fresh clone: the embedded database (its own directory here),
    // sandbox payments and the demo organization, whatever the calling shell has set.
    server = await startServer(app.dir, {
      GOODFUND_DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      TEST_DATABASE_URL: undefined,
      PGLITE_DIR: undefined,
      APP_URL: undefined,
      NEXTAUTH_URL: undefined,
      NEXTAUTH_SECRET: undefined,
      PAYMENTS_MODE: undefined,
      STRIPE_SECRET_KEY: undefined,
      STRIPE_PUBLISHABLE_KEY: undefined,
      TURNSTILE_SITE_KEY: undefined,
      REDIS_URL: undefined,
      UPSTASH_REDIS_REST_URL: undefined,
      UPSTASH_REDIS_REST_TOKEN: undefined,
      RATE_LIMIT_BACKEND: undefined,
      DEMO_HISTORY_SCALE: undefined,
      SEED_DEMO: "1",
      LOG_LEVEL: "warn",
    });
    const url = server.url;
    log(`server up at ${url}`);
    await demoSettled(url);
    const cookie = await demoSessionCookie(url);
    const thankYou = await giveThroughApi(url);
    type Page = { key: string; name: string; path: string; headers: Record<string, string>; jsGoal: boolean };
    const all: Page[] = [
      { key: "donate", name: "donate page", path: `/o/${DEMO.org}/donate/${DEMO.campaign}`, headers: {}, jsGoal: true },
      { key: "thank-you", name: "thank-you page", path: thankYou, headers: {}, jsGoal: false },
      { key: "dashboard", name: "dashboard overview", path: `/dashboard/${DEMO.org}`, headers: { Cookie: cookie }, jsGoal: false },
    ];
    const pages = all.filter((page) => !ONLY || ONLY.has(page.key));
    const results: PageResult[] = [];
    for (const page of pages) {
      // One request first, so no run measures the server's first render of the route.
      const warm = await fetch(`${url}${page.path}`, { headers: page.headers, redirect: "manual" });
      await warm.arrayBuffer();
      if (warm.status !== 200) throw new Error(`${page.path}: HTTP ${warm.status}`);
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const f = await lighthouseRun(lh, launcher, `${url}${page.path}`, page.headers, `${page.key}-${i + 1}`);
        log(
          `${page.name} run ${i + 1}: performance ${f.performance}, LCP ${(f.lcpMs / 1000).toFixed(2)} s, TBT ${f.tbtMs.toFixed(0)} ms, CLS ${f.cls.toFixed(3)}, JS ${kib(f.jsBytes).toFixed(1)} KiB`,
        );
        runs.push(f);
      }
      const m = (k: keyof Figures) => median(runs.map((r) => r[k]));
      results.push({
        name: page.name,
        path: page.path,
        runs,
        jsGoal: page.jsGoal,
        median: {
          performance: m("performance"),
          lcpMs: m("lcpMs"),
          tbtMs: m("tbtMs"),
          cls: m("cls"),
          fcpMs: m("fcpMs"),
          jsBytes: m("jsBytes"),
          jsRequests: m("jsRequests"),
        },
      });
    }
    print(results);
    if (ONLY) log("a partial run (BENCH_PAGES_ONLY): bench/RESULTS.md left as it was");
    else {
      record(results);
      log("results written to bench/RESULTS.md");
    }
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
