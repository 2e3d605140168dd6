import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO, expect, giveThroughApi, publicCampaign, test as base } from "./support";

// Back and Forward between two donate pages restore each from Chromium's back/forward cache (the
// same document, not a new load), and the page then shows the totals as they are now, a gift made
// in the meantime included (components/donate/fresh-on-return.tsx).

// Playwright starts Chromium with the back/forward cache turned off; these tests need it on.
const test = base.extend({
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, ignoreDefaultArgs: ["--disable-back-forward-cache"] });
    },
    { scope: "worker" },
  ],
});

const FIRST = DEMO.donation;
const SECOND = "run-for-riverside";
const path = (slug: string) => `/o/${DEMO.orgSlug}/donate/${slug}`;

type Marked = Window & { __bfcacheMark?: string; __pageshows?: boolean[] };

/** The campaign's number of gifts, as the page words it ("1,234 donations"). */
async function donationsText(request: APIRequestContext, slug: string): Promise<string> {
  const res = await request.get(`/api/public/orgs/${DEMO.orgSlug}/campaigns/${slug}`);
  expect(res.status(), await res.text()).toBe(200);
  const count = (await res.json()).progress.donationCount as number;
  return `${count.toLocaleString("en-US")} ${count === 1 ? "donation" : "donations"}`;
}

/** Leaves a mark in the document: only the same document, restored from memory, still has it. */
async function mark(page: Page, value: string) {
  await page.evaluate((v) => {
    (window as Marked).__bfcacheMark = v;
  }, value);
}

/** The mark and whether the last `pageshow` came from the back/forward cache. */
async function restored(page: Page) {
  return page.evaluate(() => {
    const w = window as Marked;
    return { mark: w.__bfcacheMark ?? null, persisted: w.__pageshows?.at(-1) ?? null };
  });
}

async function gift(request: APIRequestContext, slug: string, who: string) {
  const { id } = await publicCampaign(request, DEMO.orgSlug, slug);
  const paid = await giveThroughApi(request, id, {
    amount: 2500,
    email: `${who}.${Date.now().toString(36)}@example.org`,
    firstName: who,
    lastName: "Cache",
  });
  expect(paid.status).toBe("SUCCEEDED");
}

test("Back and Forward restore the donate page from the back/forward cache, with the totals as they are now", async ({ page, request }) => {
  await page.addInitScript(() => {
    window.addEventListener("pageshow", (e) => {
      const w = window as Marked;
      w.__pageshows = [...(w.__pageshows ?? []), e.persisted];
    });
  });
  // The thermometer's count of gifts.
  const count = () => page.getByText(/^[\d,]+ donations?$/).first();

  await page.goto(path(FIRST));
  await expect(count()).toHaveText(await donationsText(request, FIRST));
  await mark(page, "first");

  // A full navigation to another donate page, then a gift to the first one while the donor is away.
  await page.goto(path(SECOND));
  await expect(count()).toHaveText(await donationsText(request, SECOND));
  await mark(page, "second");
  await gift(request, FIRST, "Bertha");

  // A page restored from the back/forward cache fires no load event: wait for the history step only.
  await page.goBack({ waitUntil: "commit" });
  await page.waitForURL((u) => u.pathname === path(FIRST), { waitUntil: "commit" });
  // The same document, shown again from memory...
  await expect.poll(() => restored(page)).toEqual({ mark: "first", persisted: true });
  // ...which asked the server for its figures: the gift made meanwhile is counted.
  await expect(count()).toHaveText(await donationsText(request, FIRST));

  // Forward likewise, after a gift to the second campaign.
  await gift(request, SECOND, "Fritz");
  await page.goForward({ waitUntil: "commit" });
  await page.waitForURL((u) => u.pathname === path(SECOND), { waitUntil: "commit" });
  await expect.poll(() => restored(page)).toEqual({ mark: "second", persisted: true });
  await expect(count()).toHaveText(await donationsText(request, SECOND));

  // The form still works on the restored page.
  await expect(page.getByRole("button", { name: "Continue to payment" })).toBeEnabled();
});

test("a donate page left before it became interactive, then restored, still shows the totals as they are now", async ({
  page,
  request,
}) => {
  await page.addInitScript(() => {
    window.addEventListener("pageshow", (e) => {
      const w = window as Marked;
      w.__pageshows = [...(w.__pageshows ?? []), e.persisted];
    });
  });
  const count = () => page.getByText(/^[\d,]+ donations?$/).first();
  // A slow phone: the page's `load` comes well before React has mounted it, and the donor leaves
  // at once. Whether React got there before the page was frozen varies from run to run, and now and
  // then Chromium does not keep a page it froze mid-hydration (Forward then loads it anew). So the
  // donor does it three times: each time the page must end up with the current totals, and at
  // least one of the three must have been a restore.
  const cpu = await page.context().newCDPSession(page);
  const restores: boolean[] = [];
  for (const attempt of [1, 2, 3]) {
    await page.goto(path(FIRST));
    await expect(count()).toHaveText(await donationsText(request, FIRST));

    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.goto(path(SECOND), { waitUntil: "load" });
    await mark(page, `second ${attempt}`);
    await page.goBack({ waitUntil: "commit" });
    await page.waitForURL((u) => u.pathname === path(FIRST), { waitUntil: "commit" });
    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await expect(count()).toHaveText(await donationsText(request, FIRST));

    await gift(request, SECOND, `Early${attempt}`);
    await page.goForward({ waitUntil: "commit" });
    await page.waitForURL((u) => u.pathname === path(SECOND), { waitUntil: "commit" });
    await expect(count()).toHaveText(await donationsText(request, SECOND));
    const { mark: kept, persisted } = await restored(page);
    restores.push(kept === `second ${attempt}` && persisted === true);
  }
  expect(restores).toContain(true);
});

// Playwright's own launch, without the back/forward cache: Back loads the page anew, and Chromium
// answers it from its HTTP cache without asking the server.
base(
  "Back to a donate page loaded from the HTTP cache shows the totals as they are now, also when React mounts it before its load ends",
  async ({ page, request }) => {
    // An image the server is slow to send keeps the page's load open after React has mounted the
    // page. It is held in the browser's network layer (the DevTools protocol), not with Playwright's
    // routing, which would turn the HTTP cache off.
    const cdp = await page.context().newCDPSession(page);
    cdp.on("Fetch.requestPaused", ({ requestId }) => {
      setTimeout(() => void cdp.send("Fetch.continueRequest", { requestId }).catch(() => {}), 1500);
    });
    await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*slow-image=*" }] });
    await page.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        const img = document.createElement("img");
        img.alt = "";
        img.src = `/icon.png?slow-image=${Math.random()}`;
        document.body.append(img);
      });
    });
    const count = () => page.getByText(/^[\d,]+ donations?$/).first();
    await page.goto(path(FIRST));
    await expect(count()).toHaveText(await donationsText(request, FIRST));
    await page.goto(path(SECOND));
    await expect(count()).toHaveText(await donationsText(request, SECOND));
    // Twice: the second time, the page's refresh is the same request as the first time's, which
    // Chromium would answer from its cache while the page is still loading.
    for (const who of ["Hilde", "Ines"]) {
      await gift(request, FIRST, who);
      await page.goBack({ waitUntil: "commit" });
      await page.waitForURL((u) => u.pathname === path(FIRST), { waitUntil: "commit" });
      await expect(count(), `Back, after ${who}'s gift`).toHaveText(await donationsText(request, FIRST));
      await page.goForward({ waitUntil: "commit" });
      await page.waitForURL((u) => u.pathname === path(SECOND), { waitUntil: "commit" });
      await expect(count()).toHaveText(await donationsText(request, SECOND));
    }
  },
);
