import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { encode } from "next-auth/jwt";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, expectNoSeriousViolations, serverDataDir, serverUrl, signInByEmail, test } from "./support";

// Staff account security in the browser: an authenticator app set up from the QR code's secret
// and used at the next sign-in; a passkey made and used through Chromium's virtual
// authenticator; an organization that requires two-factor walking a member through it; the
// dialog that asks for a recent second factor and then finishes what was typed; single sign-on
// through the local OpenID Connect provider global-setup.ts runs. Fresh users only: the demo
// owner, which other specs sign in as, never gets a second factor.

function base32Decode(s: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of s.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 (SHA-1, 6 digits, 30 s): the code of the step `offset` steps from now. */
function totp(secret: string, offset = 0): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offset));
  const mac = createHmac("sha1", base32Decode(secret)).update(msg).digest();
  const o = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[o] & 0x7f) << 24) | (mac[o + 1] << 16) | (mac[o + 2] << 8) | mac[o + 3];
  return String(bin % 1_000_000).padStart(6, "0");
}

const unique = (what: string) => `${what}-${randomBytes(4).toString("hex")}@example.org`;

/** Sets up the authenticator app on the Security page from the secret shown beside the QR code; answers the secret. */
async function enrolTotp(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel("6-digit code").fill(totp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" });
  await expect(codes.getByRole("listitem")).toHaveCount(10);
  await page.getByRole("button", { name: "I've saved them" }).click();
  await expect(page.getByText("Your authenticator app is set up.")).toBeVisible();
  return secret;
}

/** Axe-clean and without sideways scrolling at the desktop width and at 375 px; a screenshot of each for people to look at. */
async function axeAtBothWidths(page: Page, what: string) {
  const size = page.viewportSize()!;
  const file = (width: number) => `test-results/screenshots/two-factor-${what.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${width}.png`;
  await expectNoSeriousViolations(page, `${what} at ${size.width}px`);
  await page.screenshot({ path: file(size.width), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoSeriousViolations(page, `${what} at 375px`);
  await page.screenshot({ path: file(375), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: no sideways scrolling at 375px`).toBeLessThanOrEqual(1);
  await page.setViewportSize(size);
}

test.describe("two-factor authentication", { tag: "@desktop-only" }, () => {
  // Each walks several pages and runs axe at two widths per page: more than the default minute on a busy machine.
  test.describe.configure({ timeout: 180_000 });
  test("set up an authenticator app from the QR code's secret, then sign in with its code", async ({ page }) => {
    const email = unique("totp");
    await signInByEmail(page, email);
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("link", { name: "Security" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
    await axeAtBothWidths(page, "Security page");
    const secret = await enrolTotp(page);
    await axeAtBothWidths(page, "Security page, two-factor on");
    await expect(page.getByText("10 unused codes left.")).toBeVisible();

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/signin/);
    await signInByEmail(page, email, "/dashboard/security");
    // The dashboard does not open before the second factor.
    await page.waitForURL(/\/signin\/two-factor/);
    await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
    await axeAtBothWidths(page, "second sign-in step");
    await page.getByLabel("Code from your authenticator app").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText(/not valid or was already used/)).toBeVisible();
    // The enrolment used this step's code: the next step's.
    await page.getByLabel("Code from your authenticator app").fill(totp(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/dashboard\/security$/);
    const sessions = page.getByRole("list", { name: "Signed-in sessions" });
    await expect(sessions.getByText("This session")).toBeVisible();
  });

  test("a passkey through Chromium's virtual authenticator: added on the Security page, then used to sign in", async ({
    page,
    context,
  }) => {
    await virtualAuthenticator(page, context);
    const email = unique("passkey");
    await signInByEmail(page, email, "/dashboard/security");
    await page.waitForURL(/\/dashboard\/security$/);
    await page.getByLabel("Name for the new passkey").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    // The first second factor: recovery codes, once.
    await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await page.getByRole("button", { name: "I've saved them" }).click();
    const list = page.getByRole("list", { name: "Your passkeys" });
    await expect(list.locator("strong").filter({ hasText: "Test laptop" })).toBeVisible();
    await list.getByRole("button", { name: "Rename Test laptop" }).click();
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Work laptop");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(list.locator("strong").filter({ hasText: "Work laptop" })).toBeVisible();
    await axeAtBothWidths(page, "Security page with a passkey");

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/signin/);
    await page.goto("/signin?callbackUrl=%2Fdashboard%2Fsecurity");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    // A passkey is both factors: no second step.
    await page.waitForURL(/\/dashboard\/security$/);
    await expect(page.getByRole("list", { name: "Signed-in sessions" }).getByText("Passkey")).toBeVisible();
  });

  test("an organization that requires two-factor walks a member without it through setting it up", async ({ page, browser }) => {
    const ownerEmail = unique("owner");
    await signInByEmail(page, ownerEmail, "/dashboard/security");
    await page.waitForURL(/\/dashboard\/security$/);
    await enrolTotp(page);
    // The owner's session has just passed the second factor: the organization and its rule through the API.
    const slug = `tfa-${randomBytes(4).toString("hex")}`;
    const origin = { Origin: serverUrl() };
    const created = await page.request.post("/api/orgs", { data: { name: "Two-Factor Trust", slug }, headers: origin });
    expect(created.status(), await created.text()).toBe(201);
    const memberEmail = unique("member");
    const added = await page.request.post(`/api/orgs/${slug}/members`, { data: { email: memberEmail, role: "MEMBER" }, headers: origin });
    expect(added.status(), await added.text()).toBe(201);
    await page.goto(`/dashboard/${slug}/settings`);
    const requireIt = page.getByLabel("Require two-factor authentication for every member");
    await requireIt.check();
    await page.locator("form").filter({ has: requireIt }).getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Two-factor authentication is now required")).toBeVisible();

    const member = await browser.newContext({ baseURL: serverUrl() });
    const memberPage = await member.newPage();
    await signInByEmail(memberPage, memberEmail, `/dashboard/${slug}`);
    await memberPage.waitForURL(new RegExp(`/dashboard/security\\?required=${slug}`));
    await expect(memberPage.getByText("Two-Factor Trust requires two-factor authentication")).toBeVisible();
    await axeAtBothWidths(memberPage, "enrolment required by an organization");
    await enrolTotp(memberPage);
    await expectNoSeriousViolations(memberPage, "enrolment done, back to the organization");
    await memberPage.getByRole("link", { name: "Continue to Two-Factor Trust" }).click();
    await memberPage.waitForURL(new RegExp(`/dashboard/${slug}$`));
    await expect(memberPage.getByRole("heading", { level: 1 })).toContainText("Two-Factor Trust");
    await member.close();
  });

  test("a sensitive action with a stale second factor asks for it in a dialog, then finishes what was typed", async ({ page, context }) => {
    const email = unique("stale");
    await signInByEmail(page, email, "/dashboard/security");
    await page.waitForURL(/\/dashboard\/security$/);
    const secret = await enrolTotp(page);
    const slug = `stale-${randomBytes(4).toString("hex")}`;
    const created = await page.request.post("/api/orgs", { data: { name: "Stale Factor Fund", slug }, headers: { Origin: serverUrl() } });
    expect(created.status(), await created.text()).toBe(201);
    const { id: userId } = (await (await page.request.get("/api/auth/session")).json()).user as { id: string };

    // The same person's session, its second factor passed 20 minutes ago (a token as next-auth issues it, without sid).
    const secretKey = readFileSync(path.join(serverDataDir(), "nextauth-secret"), "utf8").trim();
    const token = await encode({
      token: { sub: userId, email, name: null, twoFactorAt: Math.floor(Date.now() / 1000) - 20 * 60 },
      secret: secretKey,
      maxAge: 3600,
    });
    await context.addCookies([{ name: "next-auth.session-token", value: token, url: serverUrl(), httpOnly: true, sameSite: "Lax" }]);

    await page.goto(`/dashboard/${slug}/api-access`);
    await page.getByLabel("Name").fill("Typed before the dialog");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm it’s you" });
    await expect(dialog).toBeVisible();
    await expectNoSeriousViolations(page, "second-factor dialog");
    await dialog.getByLabel("Code from your authenticator app").fill(totp(secret, 1));
    await dialog.getByRole("button", { name: "Verify" }).click();
    await expect(dialog).toBeHidden();
    // The request went again with what was typed.
    await expect(page.getByText("Key “Typed before the dialog” created: copy it now")).toBeVisible();
    await expect(page.getByLabel("New API key")).toHaveValue(/^gf_test_/);
  });

  test("single sign-on through the local OpenID Connect provider", async ({ page }) => {
    await page.goto("/signin");
    await page.getByRole("button", { name: "Continue with SSO" }).click();
    // The provider's own (development) login form and consent.
    const login = unique("sso");
    await page.locator("input[name=login]").fill(login);
    await page.locator("input[name=password]").fill("any password");
    await page.locator("button[type=submit]").click();
    const consent = page.locator("button[type=submit]");
    if (await consent.isVisible().catch(() => false)) await consent.click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("link", { name: "Security" }).click();
    await expect(page.getByRole("list", { name: "Signed-in sessions" }).getByText("Single sign-on")).toBeVisible();
    await expect(page.getByText(login)).toBeVisible();
  });
});

/** Chromium's virtual authenticator (DevTools protocol): a platform passkey store that verifies the user. */
async function virtualAuthenticator(page: Page, _context: BrowserContext) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
