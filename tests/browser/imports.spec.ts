import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { DEMO, expect, signedInTest } from "./support";

// The Import page: a Goodfund CSV is uploaded with its preset, the preview and one row's error
// show, the valid rows are committed while a progress bar follows them, the campaign's total
// moves, and the history's Undo takes it all back.

async function raised(page: Page): Promise<number> {
  return page.evaluate(async (slug) => {
    const list = await (await fetch(`/api/orgs/demo/campaigns`)).json();
    return (list.data as { slug: string; raisedAmountCents: number }[]).find((c) => c.slug === slug)!.raisedAmountCents;
  }, DEMO.donation);
}

signedInTest("import page: upload, preview and a row's error, commit with progress, then undo", async ({ page }) => {
  const tag = Date.now().toString(36);
  const rows = [
    `ada-${tag}@example.org,Ada,Lovelace,25.00,2024-03-05,${DEMO.donation},CHEQUE,1042,br-${tag}-1`,
    `grace-${tag}@example.org,Grace,Hopper,40.50,03/15/2024,${DEMO.donation},CASH,,br-${tag}-2`,
    `nobody-at-example,No,Email,12.00,2024-03-16,${DEMO.donation},CASH,,br-${tag}-3`,
  ];
  const csv = ["email,first_name,last_name,amount,date,campaign,method,reference,external_id", ...rows].join("\n") + "\n";
  await page.goto(`/dashboard/${DEMO.orgSlug}/imports`);
  await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
  const before = await raised(page);

  await page.getByLabel("Exported from").selectOption("goodfund");
  await page.getByLabel("CSV file (at most 20 MiB)").setInputFiles({ name: "gifts.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Check the file" }).click();

  const preview = page.getByRole("region", { name: "Preview of the first rows" });
  await expect(preview.locator("tbody tr")).toHaveCount(3);
  await expect(preview.locator("tbody tr").first()).toContainText(`ada-${tag}@example.org`);
  await expect(preview.locator("tbody tr").first()).toContainText("$25.00");
  const errors = page.getByRole("region", { name: "Errors per row" });
  await expect(errors.locator("tbody tr")).toHaveCount(1);
  await expect(errors.locator("tbody tr").first()).toContainText("4");
  await expect(errors.locator("tbody tr").first()).toContainText("invalid_email");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download the bad rows (CSV)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/bad-rows\.csv$/);
  const badRows = await readFile((await file.path())!, "utf8");
  expect(badRows.split("\r\n")[0]).toBe("\uFEFFrow,field,code,message,original_line");
  // Row 4 (the one without an @), with its line as read.
  expect(badRows).toContain("\r\n4,email,invalid_email,");
  expect(badRows).toContain(`"${rows[2]}"`);

  await page.getByRole("button", { name: "Import 2 gifts" }).click();
  const bar = page.getByRole("progressbar", { name: "Import progress" });
  await expect(bar).toBeVisible();
  await expect(page.getByText("Done: 2 of 2 rows")).toBeVisible({ timeout: 30_000 });
  await expect(bar).toHaveAttribute("aria-valuenow", "100");
  expect(await raised(page)).toBe(before + 2500 + 4050);

  // After a reload, the history still gives the bad rows of the import.
  await page.reload();
  const history = page.getByRole("region", { name: "Imports" });
  const mine = history.locator("tbody tr").first();
  await expect(mine).toContainText("DONE");
  const again = page.waitForEvent("download");
  await mine.getByRole("button", { name: /^Bad rows of the import/ }).click();
  expect(await readFile((await (await again).path())!, "utf8")).toBe(badRows);
  page.once("dialog", (d) => void d.accept());
  await mine.getByRole("button", { name: "Undo" }).click();
  await expect(mine).toContainText("UNDONE");
  expect(await raised(page)).toBe(before);
});
