import { DEMO, expect, expectNoSeriousViolations, signedInTest } from "./support";

// The API access page: an admin creates a key (shown once), a client uses it, the admin revokes it.
signedInTest("API access page: a key created in the dashboard works against the API until it is revoked", async ({ page, request }) => {
  await page.goto(`/dashboard/${DEMO.orgSlug}/api-access`);
  await expect(page.getByRole("heading", { level: 1, name: "API access" })).toBeVisible();
  // The page no longer shows the session token.
  await expect(page.getByText(/session token of your current/i)).toHaveCount(0);

  // With the keyboard alone: type the name, Tab through role and expiry, Enter submits.
  const name = `Browser key ${Date.now()}`;
  await page.getByLabel("Name").focus();
  await page.keyboard.type(name);
  await page.getByLabel("Role").selectOption("MEMBER");
  await page.getByLabel("Expires").selectOption("30");
  await page.getByLabel("Name").press("Enter");

  await expect(page.getByText(/copy it now/)).toBeVisible();
  await expect(page.getByText(/You won.t see it again/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy key" })).toBeVisible();
  const key = await page.getByLabel("New API key").inputValue();
  expect(key).toMatch(/^gf_test_[0-9A-Za-z]{43}$/);
  await expectNoSeriousViolations(page, "API keys page with a new key");

  const auth = { headers: { Authorization: `Bearer ${key}` } };
  const ok = await request.get(`/api/orgs/${DEMO.orgSlug}/campaigns`, auth);
  expect(ok.status(), await ok.text()).toBe(200);

  // Hidden for good once saved; the list shows its prefix, never the key.
  await page.getByRole("button", { name: "I've saved it" }).click();
  await expect(page.getByLabel("New API key")).toHaveCount(0);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(key.slice(0, 14));
  await expect(page.locator("body")).not.toContainText(key);

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  // The confirmation takes focus: Enter confirms.
  await expect(page.getByRole("button", { name: "Yes, revoke" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);

  const revoked = await request.get(`/api/orgs/${DEMO.orgSlug}/campaigns`, auth);
  expect(revoked.status()).toBe(401);
});
