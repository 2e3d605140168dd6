import { defineConfig } from "@playwright/test";

/**
 * Browser tests (`npm run test:browser`, also the end of `npm test`): Playwright driving the
 * system's Chromium (/usr/bin/chromium, installed by .ci/run; Playwright never downloads a
 * browser) against production servers started by tests/browser/global-setup.ts the way
 * `npm start` runs it, each on an embedded database in a fresh temporary directory: one per
 * worker, so that two workers never share a campaign's totals, an organization's history or
 * the mailbox.
 */
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/browser",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/playwright",
  globalSetup: "./tests/browser/global-setup.ts",
  fullyParallel: false,
  // Two at a time: a test spends most of its time waiting for pages and the server, so two
  // workers use this machine's two cores where one left them half idle. Each has its own server.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
    locale: "en-US",
    timezoneId: "UTC",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "desktop",
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      name: "phone",
      // Run at desktop width only:
      // - the journey and the staff's back-office flows (recording, correcting and merging, the
      //   year-end statements, imports, the audit log, API keys, custom domains, processor sync,
      //   a donor's erasure): desktop stories, whose pages the screenshots check at the phone's
      //   width (no sideways scrolling, every class styled), and axe;
      // - a donor's long account stories (a monthly gift changed, a failed renewal recovered, the
      //   account in another language, a data request, a supporter's page): their pages are the
      //   donate page and the account pages, which the newcomer's and the donor-account walks
      //   open on a phone;
      // - what the width does not change: the back/forward cache, double submits, the content
      //   security policy, a payment's status polling, a draft's preview and the event's time zone.
      testIgnore:
        /(journey|system-of-record|statements|imports|audit-log|api-keys|custom-domain|processor-sync|donor-erasure|donor-plans|recurring-recovery|account-languages|donor-data-requests|supporter-pages|back-forward-cache|double-submit|security-headers|incomplete-gifts|draft-preview|time-zone)\.spec\.ts/,
      // Tests tagged @desktop-only check something once (the keyboard walk, the blank-page detector).
      grepInvert: /@desktop-only/,
      use: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
    },
  ],
});
