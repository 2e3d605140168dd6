import type { Page } from "@playwright/test";
import { DEMO, expect, signedInTest as test } from "./support";

// Every payment attempt on the donate page belongs to an attempt (a hidden field the page's
// script keeps for the tab), from which the server derives the gift's Idempotency-Key: a double
// click, a resend after a lost answer and the same gift sent again after coming back to the page
// all end in one donation, and a different gift is another. (Signed in as the demo owner only to
// count the donations through the API afterwards; the donate page itself is public.)

const unique = (what: string) => `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
const DONATE = `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`;

async function fillGift(page: Page, email: string) {
  await page.getByRole("radio", { name: "$25", exact: true }).check();
  await page.getByRole("textbox", { name: "First name" }).fill("Ada");
  await page.getByRole("textbox", { name: "Last name" }).fill("Lovelace");
  await page.getByRole("textbox", { name: "Email" }).fill(email);
}

/**
 * The donations with this email, every status (the API lists incomplete ones too). The request
 * context keeps its connections alive, and the lost post's `route.fetch` left one idle for about
 * the server's keep-alive timeout (5 s): a read sent as the server closes it meets ECONNRESET, so
 * this read, which changes nothing, is sent again then, as a browser would.
 */
async function donationsOf(page: Page, email: string): Promise<{ id: string; amount: number; status: string }[]> {
  const res = await page.request.get(`/api/orgs/${DEMO.orgSlug}/donations?q=${encodeURIComponent(email)}`, { maxRetries: 2 });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data as { id: string; amount: number; status: string; email: string }[]).filter((d) => d.email === email);
}

/** The form posts to the page itself. */
const isPost = (r: { method(): string; url(): string }) => r.method() === "POST" && new URL(r.url()).pathname === DONATE;
const attemptOf = (post: string | null) => new URLSearchParams(post ?? "").get("attempt") ?? "(none)";
const payingFor = (page: Page) => new URL(page.url()).searchParams.get("donation");

test("a double click, then the same gift sent again after coming back, make one donation", async ({ page }) => {
  const email = unique("double");
  const attempts: string[] = [];
  // Slow answers, so the second click lands while the first post is still on its way.
  await page.route(`**${DONATE}`, async (route) => {
    if (!isPost(route.request())) return route.continue();
    attempts.push(attemptOf(route.request().postData()));
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.goto(DONATE);
  await fillGift(page, email);
  await page.getByRole("button", { name: "Continue to payment" }).dblclick();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  expect(attempts, "the second click sent nothing").toHaveLength(1);
  expect(attempts[0]).toMatch(/^[0-9a-f]{32}$/);
  const first = await donationsOf(page, email);
  expect(first).toHaveLength(1);
  expect(payingFor(page)).toBe(first[0].id);

  // The donor leaves and comes back (same tab), and sends the same gift again: the same attempt,
  // so the server answers the donation it already has.
  await page.goto("/");
  await page.goto(DONATE);
  await fillGift(page, email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  expect(payingFor(page)).toBe(first[0].id);
  expect(new Set(attempts).size, "one attempt for the whole tab").toBe(1);
  expect(await donationsOf(page, email)).toHaveLength(1);

  // A different gift is a new donation (the attempt is the same; the gift is not).
  await page.goto(DONATE);
  await fillGift(page, email);
  await page.getByRole("radio", { name: "$50", exact: true }).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  const both = await donationsOf(page, email);
  expect(both.map((d) => d.amount).sort((a, b) => a - b)).toEqual([2500, 5000]);
});

test("a post whose answer is lost, sent again from the page, makes one donation", async ({ page }) => {
  const email = unique("retried");
  const sent: { attempt: string; outcome: string }[] = [];
  await page.route(`**${DONATE}`, async (route) => {
    if (!isPost(route.request())) return route.continue();
    const attempt = attemptOf(route.request().postData());
    if (sent.length === 0) {
      // The server gets the first post and creates the donation; its answer never arrives.
      const response = await route.fetch({ maxRedirects: 0 });
      sent.push({ attempt, outcome: `lost ${response.status()}` });
      await route.abort("connectionreset");
      return;
    }
    sent.push({ attempt, outcome: "forwarded" });
    await route.continue();
  });
  await page.goto(DONATE);
  await fillGift(page, email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect.poll(() => sent.length).toBe(1);
  // The donor sees the connection fail (Chromium's error page), opens the page again and sends the same gift.
  await expect.poll(() => page.url()).toMatch(/^chrome-error:/);
  await page.goto(DONATE);
  await fillGift(page, email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  expect(sent).toEqual([
    { attempt: sent[0].attempt, outcome: "lost 303" },
    { attempt: sent[0].attempt, outcome: "forwarded" },
  ]);
  const donations = await donationsOf(page, email);
  expect(donations).toHaveLength(1);
  expect(payingFor(page)).toBe(donations[0].id);
});
