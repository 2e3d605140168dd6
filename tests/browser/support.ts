import AxeBuilder from "@axe-core/playwright";
import {
  expect,
  test as base,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { PNG } from "pngjs";

/**
 * The server global-setup.ts started for this worker (Playwright gives each worker running at the
 * same time its own TEST_PARALLEL_INDEX), or GOODFUND_E2E_URL given by hand.
 */
export function serverUrl(): string {
  const url = process.env.GOODFUND_E2E_URL ?? process.env[`GOODFUND_E2E_URL_${process.env.TEST_PARALLEL_INDEX ?? 0}`];
  if (!url)
    throw new Error("GOODFUND_E2E_URL is not set: run the browser tests with `npx playwright test` (global-setup starts the server)");
  return url;
}

/** The data directory of this worker's server (see serverUrl). */
export function serverDataDir(): string {
  const dir = process.env[`GOODFUND_E2E_DATA_DIR_${process.env.TEST_PARALLEL_INDEX ?? 0}`];
  if (!dir)
    throw new Error(
      "no data directory: the browser tests' own servers keep one (global-setup.ts); a server given by GOODFUND_E2E_URL does not",
    );
  return dir;
}

/**
 * Playwright's `test` with `baseURL` pointing at that server, so `page.goto("/signin")` works,
 * and two guards on every test:
 * - any Content-Security-Policy violation on any page it visits (the browser's
 *   `securitypolicyviolation` event, or its console message) fails the test, so the pages' policy
 *   and what they really load cannot drift apart;
 * - so does a message a client component asked for and the page did not send (use-intl's
 *   `MISSING_MESSAGE` error, which it logs to the console), so the donor's pages cannot send
 *   fewer messages than their components read.
 */
export const test = base.extend<{ cspViolations: string[]; missingMessages: string[] }>({
  baseURL: async ({}, use) => {
    await use(serverUrl());
  },
  cspViolations: [
    async ({ page }, use) => {
      const violations: string[] = [];
      await page.exposeFunction("__goodfundCspViolation", (v: string) => violations.push(v));
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (e) => {
          const report = (window as unknown as { __goodfundCspViolation?: (v: string) => void }).__goodfundCspViolation;
          report?.(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} on ${e.documentURI}`);
        });
      });
      page.on("console", (msg) => {
        if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
      });
      await use(violations);
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
  missingMessages: [
    async ({ page }, use) => {
      const missing: string[] = [];
      page.on("console", (msg) => {
        if (msg.text().includes("MISSING_MESSAGE")) missing.push(msg.text());
      });
      await use(missing);
      expect(missing, "messages a client component read that the page did not send").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export const DEMO = { orgSlug: "demo", email: "demo@goodfund.local", donation: "winter-meals", event: "harvest-gala" } as const;

/** "$25" or "$25.00": the dashboard drops whole cents, the donate form writes them. */
export const money = (dollars: number) => new RegExp(`\\$${dollars.toLocaleString("en-US")}(\\.00)?(?![\\d.])`);

/** The one-click sign-in of sandbox mode, as a visitor does it; lands on the demo organization. */
export async function signInAsDemo(page: Page): Promise<void> {
  await page.goto("/signin");
  await page.getByRole("button", { name: /Continue as the demo organization/ }).click();
  await page.waitForURL(/\/dashboard\/demo$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Riverside Food Bank");
}

/** Signs in by email the way a person does: the link asked for on /signin, opened from the sandbox mailbox. */
export async function signInByEmail(page: Page, email: string, callbackUrl = "/dashboard"): Promise<void> {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your sign-in link is ready" })).toBeVisible();
  await page.goto("/sandbox/mailbox");
  const item = page.getByRole("listitem").filter({ hasText: email }).first();
  await item.getByRole("link", { name: new RegExp(`Sign in as ${email.replace(/[.+]/g, "\\$&")}`) }).click();
}

/** The public campaign by its slugs (the donate page's own API). */
export async function publicCampaign(
  request: APIRequestContext,
  orgSlug: string,
  slug: string,
): Promise<{ id: string; [k: string]: unknown }> {
  const res = await request.get(`/api/public/orgs/${orgSlug}/campaigns/${slug}`);
  expect(res.status(), await res.text()).toBe(200);
  const body = await res.json();
  return (body.campaign ?? body) as { id: string };
}

/**
 * A paid gift without the form (setup for pages that show one): the same two public calls the
 * donate page makes, POST /api/donations then the sandbox card's confirm.
 */
export async function giveThroughApi(
  request: APIRequestContext,
  campaignId: string,
  gift: { amount: number; email: string; firstName: string; lastName: string; tickets?: number },
): Promise<{ id: string; status: string; clientSecret: string }> {
  const created = await request.post("/api/donations", { data: { campaignId, ...gift } });
  expect(created.status(), await created.text()).toBe(201);
  const { clientSecret, id } = await created.json();
  const paid = await request.post("/api/sandbox/payments/confirm", { data: { clientSecret, cardNumber: "4242424242424242" } });
  expect(paid.status(), await paid.text()).toBe(200);
  const done = await paid.json();
  return { id, status: done.status, clientSecret };
}

/** The demo's donation campaign, by the donate page's own API (generous timeout: the first call may meet a cold server). */
export async function demoCampaign(request: APIRequestContext): Promise<{ id: string; title: string }> {
  const res = await request.get(`/api/public/orgs/${DEMO.orgSlug}/campaigns/${DEMO.donation}`, { timeout: 60_000 });
  expect(res.status(), await res.text()).toBe(200);
  const body = await res.json();
  return body.campaign ?? body;
}

/** A paid monthly gift through the donate page's own two calls. */
export async function monthlyGift(
  request: APIRequestContext,
  campaignId: string,
  donor: { email: string; firstName: string; lastName: string },
) {
  const created = await request.post("/api/donations", { data: { campaignId, amount: 2500, recurringInterval: "MONTH", ...donor } });
  expect(created.status(), await created.text()).toBe(201);
  const { clientSecret } = await created.json();
  const paid = await request.post("/api/sandbox/payments/confirm", { data: { clientSecret, cardNumber: "4242424242424242" } });
  expect(paid.status(), await paid.text()).toBe(200);
  expect((await paid.json()).status).toBe("SUCCEEDED");
}

/**
 * The donor's own browser: no staff session, the project's touch settings; `options` add to it
 * (the viewport, a locale, downloads).
 */
export function donorContext(browser: Browser, info: TestInfo, options: BrowserContextOptions): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: serverUrl(),
    isMobile: info.project.use.isMobile,
    hasTouch: info.project.use.hasTouch,
    ...options,
  });
}

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;

function describeViolations(violations: AxeResults["violations"]): string[] {
  return violations.map((v) => {
    const nodes = v.nodes
      .slice(0, 5)
      .map((n) => `    at ${n.target.join(" ")}\n      ${(n.failureSummary ?? "").replace(/\n/g, "\n      ")}`)
      .join("\n");
    const more = v.nodes.length > 5 ? `\n    …and ${v.nodes.length - 5} more` : "";
    return `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}${more}`;
  });
}

/**
 * Axe (WCAG 2.0 A/AA and 2.1 AA rules) finds nothing serious or critical on the page as it is now,
 * and did run its rules; minor and moderate findings are printed, not failed.
 */
export async function expectNoSeriousViolations(page: Page, what: string) {
  // Next.js may stream a page's metadata after its body (and a client navigation sets the title
  // when the new page's metadata arrives): axe runs once the title is there, and a page without
  // one still fails here.
  await expect(page, `${what}: the document's title`).toHaveTitle(/\S/);
  // A frame whose scripts are disabled (the sandbox mailbox shows each receipt email in one) can't
  // run axe: it is left out, or the analysis waits on it until the test times out.
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21aa"])
    .exclude('iframe[sandbox]:not([sandbox~="allow-scripts"])')
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const minor = results.violations.filter((v) => !serious.includes(v));
  if (minor.length > 0) console.log(`${what}: minor/moderate axe findings:\n${describeViolations(minor).join("\n")}`);
  expect(describeViolations(serious), `${what}: serious or critical axe violations`).toEqual([]);
  expect(results.passes.length, `${what}: axe ran its rules`).toBeGreaterThan(10);
}

/** The class names the page's stylesheets define, and those its elements carry. */
export function pageClasses(page: Page): Promise<{ defined: string[]; used: string[] }> {
  return page.evaluate(() => {
    const defined = new Set<string>();
    const walk = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) for (const m of rule.selectorText.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) defined.add(m[1]);
        if ("cssRules" in rule) walk((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) walk(sheet.cssRules);
    const used = new Set<string>();
    for (const el of Array.from(document.querySelectorAll("[class]"))) el.classList.forEach((c) => used.add(c));
    return { defined: [...defined].sort(), used: [...used].sort() };
  });
}

/**
 * Every class an element of the page carries is defined by one of the page's stylesheets (CSS
 * modules' classes too): a page whose layout no longer imports the stylesheet of its classes
 * (app/ui.css) fails here instead of showing unstyled.
 */
export async function expectEveryClassStyled(page: Page, what: string) {
  const { defined, used } = await pageClasses(page);
  expect(used.length, `${what}: classes in the page`).toBeGreaterThan(0);
  // `language-json` on a code block names its language (the HTML standard's convention), not a style.
  expect(
    used.filter((c) => !defined.includes(c) && !c.startsWith("language-")),
    `${what}: classes no stylesheet of the page defines`,
  ).toEqual([]);
}

/**
 * A PNG that is a real page, not a blank one: decodes it and requires that a visible share of
 * the pixels differ from the most common colour, that several colours are present and that the
 * luminance varies. An all-white (or all-anything) screenshot fails all three.
 */
export function blankness(png: Buffer): {
  width: number;
  height: number;
  distinctColors: number;
  nonBackgroundShare: number;
  lumaStdDev: number;
} {
  const img = PNG.sync.read(png);
  const { width, height, data } = img;
  const counts = new Map<number, number>();
  let sum = 0;
  let sumSq = 0;
  const n = width * height;
  for (let i = 0; i < data.length; i += 4) {
    // Quantize to 5 bits per channel so anti-aliasing does not inflate the colour count.
    const key = ((data[i] >> 3) << 10) | ((data[i + 1] >> 3) << 5) | (data[i + 2] >> 3);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const y = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
    sum += y;
    sumSq += y * y;
  }
  const background = Math.max(...counts.values());
  const mean = sum / n;
  return {
    width,
    height,
    distinctColors: counts.size,
    nonBackgroundShare: (n - background) / n,
    lumaStdDev: Math.sqrt(Math.max(0, sumSq / n - mean * mean)),
  };
}

export function expectNotBlank(png: Buffer, what: string): void {
  expect(png.length, `${what}: PNG size`).toBeGreaterThan(8_000);
  const b = blankness(png);
  const detail = `${what}: ${JSON.stringify(b)}`;
  expect(b.nonBackgroundShare, detail).toBeGreaterThan(0.01);
  expect(b.distinctColors, detail).toBeGreaterThanOrEqual(8);
  expect(b.lumaStdDev, detail).toBeGreaterThan(4);
}

type SignedIn = { demoState: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>> };

/**
 * `test` for pages behind sign-in: the demo owner signs in once per worker (through the
 * sign-in page's one-click button) and every test's context starts with that session.
 */
export const signedInTest = test.extend<Record<never, never>, SignedIn>({
  demoState: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ baseURL: serverUrl() });
      const page = await context.newPage();
      await signInAsDemo(page);
      const state = await context.storageState();
      await context.close();
      await use(state);
    },
    { scope: "worker" },
  ],
  storageState: async ({ demoState }, use) => {
    await use(demoState);
  },
});

/**
 * Opens the sandbox mailbox once it lists a donor account link for `email`, and answers that
 * link. Asking for a link answers before the address is looked up: the server's worker makes the
 * link within its next run, so the mailbox is reloaded until it shows.
 */
export async function mailboxWithDonorLink(page: Page, email: string): Promise<Locator> {
  const link = page
    .getByRole("listitem")
    .filter({ hasText: email })
    .first()
    .getByRole("link", { name: `Open the donor account link for ${email}` });
  await expect(async () => {
    await page.goto("/sandbox/mailbox");
    await expect(link).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  return link;
}
