import type { Page, Response } from "@playwright/test";
import { DEMO, expect, signedInTest, test } from "./support";

// The pages' Content-Security-Policy as a browser meets it: present, nonce-based, obeyed by
// Next.js's own scripts, and effective against a script the page did not ship.

function nonceOf(csp: string): string {
  const m = /'nonce-([^']+)'/.exec(csp);
  if (!m) throw new Error(`no nonce in ${csp}`);
  return m[1];
}

async function expectPagePolicy(page: Page, res: Response | null): Promise<void> {
  expect(res?.status()).toBe(200);
  const headers = res!.headers();
  const csp = headers["content-security-policy"];
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/js\.stripe\.com/);
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  // The server runs on plain http: no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
  // Every inline script, Next.js's own included, carries this response's nonce (script files
  // come from our origin; the ones loaded later, on demand, need no nonce).
  const nonce = nonceOf(csp);
  const scripts = await page.evaluate(() =>
    [...document.scripts].map((s) => ({ inline: !s.src, nonce: s.nonce, html: s.outerHTML.slice(0, 100) })),
  );
  const inline = scripts.filter((s) => s.inline);
  expect(inline.length).toBeGreaterThan(0);
  expect(inline.filter((s) => s.nonce !== nonce)).toEqual([]);
}

test("the donate page sends a nonce-based CSP its own scripts satisfy", async ({ page }) => {
  const res = await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
  await expectPagePolicy(page, res);
  // The page is alive under its policy: its script and styles work.
  await page.getByRole("radio", { name: "$25", exact: true }).check();
  await expect(page.getByRole("radio", { name: "$25", exact: true })).toBeChecked();
});

test("a script the page did not ship is refused", async ({ page, cspViolations }) => {
  await page.goto(`/o/${DEMO.orgSlug}/donate/${DEMO.donation}`);
  const ran = await page.evaluate(async () => {
    const w = window as unknown as { injected?: boolean };
    const s = document.createElement("script");
    s.textContent = "window.injected = true";
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 100));
    return w.injected === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => cspViolations.some((v) => /script-src/.test(v))).toBe(true);
  // Expected here; the guard checks that nothing else was refused.
  const others = cspViolations.filter((v) => !/script-src/.test(v) && !/Content Security Policy/.test(v));
  expect(others).toEqual([]);
  cspViolations.length = 0;
});

signedInTest("the dashboard sends the same policy and works under it", async ({ page }) => {
  const res = await page.goto(`/dashboard/${DEMO.orgSlug}`);
  await expectPagePolicy(page, res);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Riverside Food Bank");
  // A client-side navigation (React Server Components fetch) still works.
  await page.getByRole("link", { name: "Campaigns" }).first().click();
  await page.waitForURL(new RegExp(`/dashboard/${DEMO.orgSlug}/campaigns$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
