import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import {
  DEMO,
  expect,
  expectEveryClassStyled,
  expectNotBlank,
  giveThroughApi,
  publicCampaign,
  serverUrl,
  signedInTest,
  test,
} from "./support";
import { DEMO_HISTORY_SCALE, FULL_HISTORY_MIN_GIFTS } from "./demo-scale";

// Full-page screenshots of the main pages at the project's width (desktop 1280, phone 375),
// written to test-results/screenshots/<project>-<page>.png and checked to show a real page:
// a successful response, visible text, no sideways overflow, every class styled, and a decoded PNG
// that is not one flat colour.

const dir = path.resolve(__dirname, "../../test-results/screenshots");
mkdirSync(dir, { recursive: true });

async function shoot(page: Page, url: string, name: string, project: string, ready: (page: Page) => Promise<void>, outDir = dir) {
  const res = await page.goto(url);
  expect(res?.status(), `${url} status`).toBeLessThan(400);
  await ready(page);
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => document.body.innerText.trim().length), `${name}: visible text`).toBeGreaterThan(20);
  // The page fits its width: nothing pushes the document sideways (a phone would zoom out).
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name}: document width at ${width}px`).toBeLessThanOrEqual(
    width,
  );
  await expect(page.getByText("This page could not be found")).toHaveCount(0);
  await expectEveryClassStyled(page, name);
  const png = await page.screenshot({ fullPage: true, animations: "disabled", path: path.join(outDir, `${project}-${name}.png`) });
  expectNotBlank(png, `${project}-${name}`);
}

const h1 = (text: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { level: 1 })).toContainText(text);
};

let donationId = "";
let winterMealsId = "";

test.beforeAll(async ({ playwright }) => {
  // One paid gift, so the thank-you page and the donations list have something to show.
  const request = await playwright.request.newContext({ baseURL: serverUrl() });
  winterMealsId = (await publicCampaign(request, DEMO.orgSlug, DEMO.donation)).id;
  donationId = (
    await giveThroughApi(request, winterMealsId, { amount: 5000, email: "shots@example.org", firstName: "Sam", lastName: "Shots" })
  ).id;
  await request.dispose();
});

test.describe("public pages", () => {
  test("landing", async ({ page }, info) => {
    await shoot(page, "/", "landing", info.project.name, h1("Fundraising"));
  });

  test("sign-in", async ({ page }, info) => {
    await shoot(page, "/signin", "signin", info.project.name, async (p) => {
      await expect(p.getByRole("button", { name: /Continue as the demo organization/ })).toBeVisible();
    });
  });

  test("donate page", async ({ page }, info) => {
    await shoot(page, `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`, "donate", info.project.name, async (p) => {
      await expect(p.getByRole("heading", { level: 1 })).toHaveText("Winter Meals Appeal");
      await expect(p.getByRole("button", { name: "Continue to payment" })).toBeVisible();
    });
  });

  test("thank-you page", async ({ page }, info) => {
    await shoot(
      page,
      `/o/${DEMO.orgSlug}/donate/${DEMO.donation}/thank-you?donation=${donationId}`,
      "thank-you",
      info.project.name,
      h1("Thank you, Sam!"),
    );
  });
});

signedInTest.describe("dashboard pages", () => {
  const base = `/dashboard/${DEMO.orgSlug}`;

  signedInTest("dashboard overview", async ({ page }, info) => {
    await shoot(page, base, "dashboard", info.project.name, h1("Riverside Food Bank"));
  });

  signedInTest("campaigns list", async ({ page }, info) => {
    await shoot(page, `${base}/campaigns`, "campaigns", info.project.name, async (p) => {
      await h1("Campaigns")(p);
      await expect(p.getByRole("link", { name: "Winter Meals Appeal", exact: true })).toBeVisible();
    });
  });

  signedInTest("campaign editor", async ({ page }, info) => {
    await shoot(page, `${base}/campaigns/${winterMealsId}`, "campaign-editor", info.project.name, async (p) => {
      await h1("Winter Meals Appeal")(p);
      await expect(p.getByRole("textbox", { name: /^Title/ })).toHaveValue("Winter Meals Appeal");
    });
  });

  signedInTest("donations list", async ({ page }, info) => {
    await shoot(page, `${base}/donations`, "donations", info.project.name, async (p) => {
      await h1("Donations")(p);
      await expect(p.getByRole("row").filter({ hasText: "shots@example.org" }).first()).toBeVisible();
    });
  });

  signedInTest("reports", async ({ page }, info) => {
    await shoot(page, `${base}/reports`, "reports", info.project.name, h1("Reports"));
  });

  // The system of record's pages, whose flows (tests/browser/system-of-record.spec.ts and
  // statements.spec.ts) run at desktop width only: here they are checked at each width.
  signedInTest("donors list", async ({ page }, info) => {
    await shoot(page, `${base}/donors`, "donors", info.project.name, async (p) => {
      await h1("Donors")(p);
      // A page of the demo's donors: the table's header row, then at least five of theirs.
      await expect(p.getByRole("main").getByRole("row").nth(5)).toBeVisible();
    });
  });

  signedInTest("a donor's record", async ({ page }, info) => {
    const res = await page.request.get(`/api/orgs/${DEMO.orgSlug}/donors?q=${encodeURIComponent("shots@example.org")}`);
    expect(res.status(), await res.text()).toBe(200);
    const [donor] = ((await res.json()) as { data: { id: string }[] }).data;
    await shoot(page, `${base}/donors/${donor.id}`, "donor", info.project.name, h1("Sam Shots"));
  });

  signedInTest("record a gift", async ({ page }, info) => {
    await shoot(page, `${base}/donations/record`, "record-gift", info.project.name, h1("Record a gift"));
  });

  signedInTest("settings", async ({ page }, info) => {
    await shoot(page, `${base}/settings`, "settings", info.project.name, h1("Organization"));
  });

  signedInTest("year-end statements", async ({ page }, info) => {
    await shoot(page, `${base}/statements`, "statements", info.project.name, h1("Year-end statements"));
  });

  signedInTest("emails", async ({ page }, info) => {
    await shoot(page, `${base}/emails`, "emails", info.project.name, async (p) => {
      await h1("Emails")(p);
      await expect(p.getByRole("main").getByText("shots@example.org").first()).toBeVisible();
    });
  });

  // The pages of the back-office flows that run at desktop width only (imports, the audit log,
  // API keys; custom domains are on the settings page): here they are checked at each width.
  signedInTest("imports", async ({ page }, info) => {
    await shoot(page, `${base}/imports`, "imports", info.project.name, h1("Import"));
  });

  signedInTest("audit log", async ({ page }, info) => {
    await shoot(page, `${base}/audit-log`, "audit-log", info.project.name, h1("Audit log"));
  });

  signedInTest("API access", async ({ page }, info) => {
    await shoot(page, `${base}/api-access`, "api-access", info.project.name, h1("API access"));
  });
});

// The demo organization's year of history (lib/demo/history.ts), which the server
// plays in the background after it starts: the dashboard overview and the reports over all time,
// written to docs/screenshots/<project>-demo-<page>.png (git-ignored: they change with every run,
// as the history is dated from the day it plays).
const docsDir = path.resolve(__dirname, "../../docs/screenshots");

/**
 * The demo's history (the share of it global-setup asked for) has played: its gifts are there
 * and the sponsor's match of the last weeks has begun. The server answers only once it has
 * (global-setup.ts), so this checks rather than waits.
 */
async function demoHistoryPlayed(page: Page) {
  const res = await page.request.get(`/api/orgs/${DEMO.orgSlug}/campaigns?limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  type Row = { slug: string; parentCampaignId: string | null; donationCount: number; matchedAmountCents: number };
  const list = ((await res.json()) as { data: Row[] }).data;
  const gifts = list.filter((c) => !c.parentCampaignId).reduce((n, c) => n + c.donationCount, 0);
  expect(gifts).toBeGreaterThanOrEqual(FULL_HISTORY_MIN_GIFTS * DEMO_HISTORY_SCALE * 0.75);
  expect(list.find((c) => c.slug === DEMO.donation)?.matchedAmountCents ?? 0).toBeGreaterThan(0);
}

signedInTest.describe("the demo's history", () => {
  const base = `/dashboard/${DEMO.orgSlug}`;

  signedInTest("dashboard overview with a year of gifts", async ({ page }, info) => {
    await demoHistoryPlayed(page);
    await shoot(
      page,
      base,
      "demo-dashboard",
      info.project.name,
      async (p) => {
        await h1("Riverside Food Bank")(p);
        // Raised over the year (the share global-setup plays): thousands, not "$0".
        await expect(p.getByRole("main")).toContainText(/\$\d{1,3},\d{3}/);
      },
      docsDir,
    );
  });

  signedInTest("reports over all time, month by month", async ({ page }, info) => {
    await demoHistoryPlayed(page);
    await shoot(
      page,
      `${base}/reports?range=all&interval=month`,
      "demo-reports",
      info.project.name,
      async (p) => {
        await h1("Reports")(p);
        await expect(p.getByRole("main")).toContainText(/\$\d{1,3},\d{3}/);
        // A bucket for each month since last year's November, none of them empty.
        const months = p.locator("[aria-label='Raised over time, as a table'] tbody tr");
        await expect.poll(() => months.count()).toBeGreaterThanOrEqual(12);
        await expect(months.locator("td:nth-of-type(1)").filter({ hasText: /^\$0(\.00)?$/ })).toHaveCount(0);
      },
      docsDir,
    );
  });
});

test("the blank-page check fails for a white page", { tag: "@desktop-only" }, async ({ page }, _info) => {
  // The detector itself: a white page (and a page of one colour) must not pass as a screenshot.
  await page.setContent("<html><body style='margin:0;background:#fff'></body></html>");
  const white = await page.screenshot({ fullPage: true });
  expect(() => expectNotBlank(white, "white")).toThrow();
  await page.setContent("<html><body style='margin:0;background:#1a7f5a'></body></html>");
  const green = await page.screenshot();
  expect(() => expectNotBlank(green, "green")).toThrow();
});
