import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import QRCode from "qrcode";
import { donorContext, DEMO, expect, serverUrl, signedInTest as test } from "./support";

// An event with two ticket tiers, end to end: a donor buys one ticket of each at 375 px naming
// each guest; both QR codes show on the thank-you page and in the sandbox mailbox's receipt; then
// the check-in desk, fed a fake camera whose video is that QR code, admits the guest once and
// refuses the second scan. The camera runs in its own Chromium launched here with the fake-device
// flags, so no other test's browser has them.

/**
 * A Y4M video (4:2:0) of `code`'s QR code, black modules on white, for Chromium's
 * `--use-file-for-fake-video-capture`: a few identical grayscale frames, chroma neutral (128).
 */
function qrVideo(code: string): string {
  const qr = QRCode.create(code, { errorCorrectionLevel: "M" });
  const size = qr.modules.size;
  const W = 640;
  const H = 480;
  const scale = Math.floor(360 / (size + 8));
  const side = (size + 8) * scale; // 4 modules of quiet zone each side
  const left = Math.floor((W - side) / 2);
  const top = Math.floor((H - side) / 2);
  const y = Buffer.alloc(W * H, 235);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!qr.modules.get(row, col)) continue;
      for (let dy = 0; dy < scale; dy++) {
        const offset = (top + (row + 4) * scale + dy) * W + left + (col + 4) * scale;
        y.fill(16, offset, offset + scale);
      }
    }
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), y, chroma]);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "goodfund-qr-")), "qr.y4m");
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F25:1 Ip A1:1 C420jpeg\n`), ...Array(10).fill(frame)]));
  return file;
}

test("two tiers bought with attendee names at 375 px; QR codes on the thank-you page and in the receipt; the door admits once @desktop-only", async ({
  page,
  browser,
  context,
}, info) => {
  test.setTimeout(150_000);
  const run = Date.now().toString(36);
  const origin = { Origin: serverUrl() };
  const created = await page.request.post(`/api/orgs/${DEMO.orgSlug}/campaigns`, {
    headers: origin,
    data: {
      title: `Spring Gala ${run}`,
      type: "EVENT",
      status: "ACTIVE",
      ticketTiers: [
        { name: "General", priceCents: 5_000, capacity: 50, fairMarketValueCents: 2_000 },
        { name: "VIP", priceCents: 15_000, capacity: 10, fairMarketValueCents: 6_000, description: "Front tables" },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaign = await created.json();
  const email = `gala.${run}@example.org`;

  let adaCode = "";
  await test.step("the donor buys one General and one VIP ticket at 375 px, naming both guests", async () => {
    const donor = await donorContext(browser, info, { viewport: { width: 375, height: 812 } });
    const donatePage = await donor.newPage();
    await donatePage.goto(`/o/${DEMO.orgSlug}/donate/${campaign.slug}`);
    await donatePage.getByRole("button", { name: "One VIP ticket more" }).click();
    await donatePage.getByRole("textbox", { name: "Guest 1 name · General" }).fill("Ada Lovelace");
    await donatePage.getByRole("textbox", { name: "Guest 1 name · VIP" }).fill("Charles Babbage");
    await expect(donatePage.getByTestId("order-total")).toHaveText(/\$200(\.00)?/);
    await donatePage.getByRole("textbox", { name: "First name", exact: true }).fill("Grace");
    await donatePage.getByRole("textbox", { name: "Last name", exact: true }).fill("Hopper");
    await donatePage.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await donatePage.getByRole("button", { name: "Continue to payment" }).click();
    await expect(donatePage.getByRole("heading", { name: "Payment" })).toBeVisible();
    await donatePage.getByRole("textbox", { name: "Card number" }).fill("4242 4242 4242 4242");
    await donatePage.getByRole("textbox", { name: "Expiry date" }).fill("12 / 34");
    await donatePage.getByRole("textbox", { name: "Security code" }).fill("123");
    await donatePage.getByRole("button", { name: /^Pay \$200(\.00)?$/ }).click();
    await donatePage.waitForURL(/thank-you/);
    const ada = donatePage.getByRole("img", { name: "QR code of the ticket for Ada Lovelace" });
    await expect(ada).toBeVisible({ timeout: 30_000 });
    await expect(donatePage.getByRole("img", { name: "QR code of the ticket for Charles Babbage" })).toBeVisible();
    // Nothing spills sideways at 375 px.
    expect(await donatePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    adaCode = (await donatePage.locator("li[data-ticket-code]").filter({ hasText: "Ada Lovelace" }).getAttribute("data-ticket-code")) ?? "";
    expect(adaCode).toMatch(/^[A-Z2-7]{24}$/);
    await expect(donatePage.getByRole("link", { name: "Download the tickets (PDF)" })).toBeVisible();
    await donor.close();
  });

  await test.step("the sandbox mailbox's receipt shows both QR codes", async () => {
    const receipt = page.frameLocator(`iframe[title="Receipt email to ${email}"]`);
    await expect(async () => {
      await page.goto("/sandbox/mailbox");
      await expect(receipt.getByRole("img", { name: "QR code of the ticket for Ada Lovelace" })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(receipt.getByRole("img", { name: "QR code of the ticket for Charles Babbage" })).toBeVisible();
  });

  await test.step("the check-in desk decodes the QR code from the camera: admits Ada, then refuses the second scan", async () => {
    const camera = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-video-capture=${qrVideo(adaCode)}`,
      ],
    });
    try {
      const staff = await camera.newContext({
        baseURL: serverUrl(),
        storageState: await context.storageState(),
        viewport: { width: 375, height: 812 },
        permissions: ["camera"],
      });
      const door = await staff.newPage();
      await door.goto(`/dashboard/${DEMO.orgSlug}/campaigns/${campaign.id}/check-in`);
      await door.getByRole("button", { name: "Start the camera" }).click();
      const answer = door.getByTestId("check-in-answer");
      await expect(answer).toHaveText("Checked in: Ada Lovelace, General", { timeout: 30_000 });
      // The same code keeps facing the camera: scanned again, it is refused with the time.
      await expect(answer).toHaveText(/^Already checked in at \d{1,2}:\d{2}/, { timeout: 30_000 });
      await expect(door.getByTestId("check-in-counts")).toContainText(/General\s*1 of 1/);
      await staff.close();
    } finally {
      await camera.close();
    }
  });
});
