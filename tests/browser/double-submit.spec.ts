import type { Page } from "@playwright/test";
import { DEMO, expect, signedInTest as test } from "./support";

// Every payment attempt on the donate page carries an Idempotency-Key, made once per attempt and
// reused: a double click, a retry after a lost answer and the same gift sent again after coming
// back to the page all end in one donation. (Signed in as the demo owner only to count the
// donations through the API afterwards; the donate page itself is public.)

const unique = (what: string) => `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
const DONATE = `/o/${DEMO.orgSlug}/donate/${DEMO.donation}`;

async function fillGift(page: Page, email: string) {
  await page.getByRole("radio", { name: "$25", exact: true }).check();
  await page.getByRole("textbox", { name: "First name" }).fill("Ada");
  await page.getByRole("textbox", { name: "Last name" }).fill("Lovelace");
  await page.getByRole("textbox", { name: "Email" }).fill(email);
}

/** The donations with this email, every status (the API lists incomplete ones too). */
async function donationsOf(page: Page, email: string): Promise<{ id: string; amount: number; status: string }[]> {
  const res = await page.request.get(`/api/orgs/${DEMO.orgSlug}/donations?q=${encodeURIComponent(email)}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data as { id: string; amount: number; status: string; email: string }[]).filter((d) => d.email === email);
}

test("a double click, then the same gift sent again after coming back, make one donation", async ({ page }) => {
  const email = unique("double");
  const keys: string[] = [];
  // Slow answers, so the second click lands while the first request is still on its way.
  await page.route("**/api/donations", async (route) => {
    keys.push(route.request().headers()["idempotency-key"] ?? "(none)");
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.goto(DONATE);
  await fillGift(page, email);
  await page.getByRole("button", { name: "Continue to payment" }).dblclick();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  expect(keys.length).toBeGreaterThanOrEqual(1);
  expect(keys[0]).toMatch(/^donate_[0-9a-f]{32}$/);
  const first = await donationsOf(page, email);
  expect(first).toHaveLength(1);

  // The donor leaves and comes back (same tab), and sends the same gift again: the server answers
  // the donation it already has.
  await page.goto("/");
  await page.goto(DONATE);
  await fillGift(page, email);
  const replayed = page.waitForResponse((r) => r.url().endsWith("/api/donations") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  const answer = await replayed;
  expect(answer.status()).toBe(201);
  expect(answer.headers()["idempotent-replayed"]).toBe("true");
  expect((await answer.json()).id).toBe(first[0].id);
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  expect(new Set(keys).size, "one key for the whole attempt").toBe(1);
  expect(await donationsOf(page, email)).toHaveLength(1);

  // A different gift is a new attempt, with a new key and its own donation.
  await page.goto(DONATE);
  await fillGift(page, email);
  await page.getByRole("radio", { name: "$50", exact: true }).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  expect(new Set(keys).size).toBe(2);
  const both = await donationsOf(page, email);
  expect(both.map((d) => d.amount).sort((a, b) => a - b)).toEqual([2500, 5000]);
});

test("a request whose answer is lost is retried with the same key and makes one donation", async ({ page }) => {
  const email = unique("retried");
  const sent: { key: string; outcome: string }[] = [];
  await page.route("**/api/donations", async (route) => {
    const key = route.request().headers()["idempotency-key"] ?? "(none)";
    if (sent.length === 0) {
      // The server gets the first request and creates the donation; its answer never arrives.
      const response = await route.fetch();
      sent.push({ key, outcome: `lost ${response.status()}` });
      await route.abort("connectionreset");
      return;
    }
    sent.push({ key, outcome: "forwarded" });
    await route.continue();
  });
  await page.goto(DONATE);
  await fillGift(page, email);
  const retried = page.waitForResponse((r) => r.url().endsWith("/api/donations") && r.request().method() === "POST" && r.status() === 201);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  const answer = await retried;
  await expect(page.getByRole("heading", { name: "Payment" })).toBeFocused();
  expect(sent).toEqual([
    { key: sent[0].key, outcome: "lost 201" },
    { key: sent[0].key, outcome: "forwarded" },
  ]);
  expect(answer.headers()["idempotent-replayed"]).toBe("true");
  const donations = await donationsOf(page, email);
  expect(donations).toHaveLength(1);
  expect((await answer.json()).id).toBe(donations[0].id);
});
