import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FrameLocator, Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousViolations, publicCampaign, serverUrl, signedInTest, test } from "./support";

// The embeddable donate form on a page of another origin (a charity's own site, served here by a
// tiny HTTP server on 127.0.0.1, another site than the app's localhost), under a strict
// Content-Security-Policy of that site's own; the organization's landing page; the dashboard's snippets.

let site: Server;
let siteUrl: string;

function charityPage(app: string): string {
  const donate = `${app}/o/${DEMO.orgSlug}/donate/${DEMO.donation}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Riverside's own site</title></head>
<body>
<main>
<h1>Riverside Food Bank's own website</h1>
<p>Overlay: <a href="${donate}" data-goodfund>Give now</a></p>
<p><a href="/after">A link after the button</a></p>
<section aria-label="Inline form"><a href="${donate}" data-goodfund="inline">Donate to Winter meals</a></section>
</main>
<script src="${app}/embed.js" async></script>
</body>
</html>`;
}

test.beforeAll(async () => {
  const app = serverUrl();
  site = createServer((req, res) => {
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      // The charity's own policy: scripts and frames from Goodfund only, no inline style or script.
      "Content-Security-Policy": `default-src 'self'; script-src ${app}; frame-src ${app}; style-src 'self'; img-src 'self'`,
    });
    res.end(charityPage(app));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

/** The sandbox gift inside a frame: the donor's details, then the card 4242. */
async function giveInFrame(frame: FrameLocator, firstName: string) {
  await frame.getByRole("radio", { name: "$25", exact: true }).check();
  await frame.getByRole("textbox", { name: "First name" }).fill(firstName);
  await frame.getByRole("textbox", { name: "Last name" }).fill("Hopper");
  await frame.getByRole("textbox", { name: "Email" }).fill(`${firstName.toLowerCase()}.${Date.now().toString(36)}@example.org`);
  await frame.getByRole("button", { name: "Continue to payment" }).click();
  await expect(frame.getByRole("heading", { name: "Payment" })).toBeVisible();
  await frame.getByRole("textbox", { name: "Card number" }).fill("4242 4242 4242 4242");
  await frame.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
  await frame.getByRole("textbox", { name: "Security code" }).fill("123");
  await frame.getByRole("button", { name: /^Pay \$25(\.00)?$/ }).click();
}

const frameHeight = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => (el as HTMLElement).getBoundingClientRect().height);

test("the overlay on another site: a sandbox gift from the form to the thank-you page, all inside the frame", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(siteUrl);
  const open = page.getByRole("button", { name: "Give now" });
  await expect(open).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await open.click();
  const dialog = page.getByRole("dialog", { name: "Give now" });
  await expect(dialog).toBeVisible();
  const close = dialog.getByRole("button", { name: "Close" });
  await expect(close).toBeFocused();
  // Focus stays in the dialog: back from the close button goes round to the form's frame.
  await page.keyboard.press("Shift+Tab");
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("IFRAME");

  const frame = page.frameLocator('.goodfund-overlay iframe[title^="Donation form"]');
  await expect(frame.getByRole("heading", { name: "Winter Meals Appeal" })).toBeVisible();
  // The frame was fitted to the form by its resize messages (it starts at 640px).
  await expect.poll(() => frameHeight(page, ".goodfund-overlay iframe")).not.toBe(640);

  await giveInFrame(frame, "Grace");
  await expect(frame.getByRole("heading", { name: "Thank you, Grace!" })).toBeVisible({ timeout: 20_000 });
  const inner = page.frames().find((f) => /\/embed\/thank-you\?/.test(f.url()));
  expect(inner, "the thank-you page is the frame's own").toBeTruthy();
  expect(new URL(page.url()).origin).toBe(new URL(siteUrl).origin);
  // Its links stay in the form.
  await expect(frame.getByRole("link", { name: /Back to/ })).toHaveAttribute("href", `/o/${DEMO.orgSlug}/donate/${DEMO.donation}/embed`);

  // Escape pressed inside the frame closes the overlay (the frame tells the page), focus returns.
  await frame.getByRole("heading", { name: "Thank you, Grace!" }).click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  // And reopens where the donor left it; Escape on the page itself closes it too.
  await open.click();
  await expect(frame.getByRole("heading", { name: "Thank you, Grace!" })).toBeVisible();
  await expect(close).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
});

test("the inline form on another site fits its frame", async ({ page }) => {
  await page.goto(siteUrl);
  const iframe = page.locator('.goodfund-inline iframe[title="Donation form: Donate to Winter meals"]');
  await iframe.scrollIntoViewIfNeeded();
  const frame = page.frameLocator(".goodfund-inline iframe");
  await expect(frame.getByRole("button", { name: "Continue to payment" })).toBeVisible();
  await expect.poll(() => frameHeight(page, ".goodfund-inline iframe")).not.toBe(640);
  // Fitted: the frame's document does not scroll.
  const fits = await frame.locator("body").evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1);
  expect(fits).toBe(true);
});

test("the embed page: framable by any site, no page chrome, axe clean", async ({ page }) => {
  const res = await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}/embed`);
  expect(res?.status()).toBe(200);
  const headers = res!.headers();
  expect(headers["x-frame-options"]).toBeUndefined();
  expect(headers["content-security-policy"]).not.toContain("frame-ancestors");
  // Revalidated on every load, yet not no-store (lib/security/headers.ts).
  expect(headers["cache-control"]).toBe("private, no-cache");
  await expect(page.getByRole("button", { name: "Continue to payment" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expectNoSeriousViolations(page, "embed page");
  // The full donate page still refuses to be framed.
  const full = await page.request.get(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
  expect(full.headers()["x-frame-options"]).toBe("DENY");
});

test("the landing page lists the organization's open campaigns, axe clean", async ({ page }) => {
  const res = await page.goto(`/o/${DEMO.orgSlug}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Support Riverside Food Bank");
  const cards = page.getByRole("article");
  expect(await cards.count()).toBeGreaterThan(0);
  const donate = page.getByRole("link", { name: /^Donate to Winter Meals Appeal/ });
  await expect(donate).toBeVisible();
  await expectNoSeriousViolations(page, "landing page");
  await donate.click();
  await page.waitForURL(new RegExp(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}$`));
  // An unknown organization is a 404.
  expect((await page.request.get("/o/no-such-organization-here")).status()).toBe(404);
  // The short URL leads to the same page.
  await page.goto(`/donate/${DEMO.donation}`);
  await expect(page).toHaveURL(new RegExp(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}$`));
});

signedInTest("the campaign page offers the button and inline snippets, and copying says so", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { id } = await publicCampaign(request, DEMO.orgSlug, DEMO.donation);
  await page.goto(`/dashboard/${DEMO.orgSlug}/campaigns/${id}`);
  const button = page.getByRole("textbox", { name: "Donate button for your website" });
  await expect(button).toHaveValue(
    /<a href="[^"]+\/donate\/winter-meals" data-goodfund>Donate<\/a>\n<script src="[^"]+\/embed\.js" async><\/script>/,
  );
  await expect(page.getByRole("textbox", { name: "Donate form for your website" })).toHaveValue(/data-goodfund="inline"/);
  // The copy button of the button snippet (described by its field): its name becomes "Copied".
  const copy = page.locator('button[aria-describedby="share-embed-button"]');
  await expect(copy).toHaveText("Copy");
  await copy.click();
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("data-goodfund");
});
