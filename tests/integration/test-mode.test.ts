import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { outbox } from "@/db/schema";
import { emailSubject } from "@/components/dashboard/ops/email-subject";
import { renderEmail, TEST_MODE_SUBJECT_PREFIX } from "@/lib/email/render";
import type { EmailMessage } from "@/lib/email/types";
import { resetEnv } from "@/lib/env";
import { testDb } from "../helpers/db";
import { activeCampaign, activeOrg, paidDonation } from "../helpers/records";

// Sandbox payments mode marks every email: "[Test mode] " before the subject and a line saying no
// real payment was taken at the top of the body. A Stripe-mode install sends them unmarked.
const NOTE = "Test mode: no real payment was taken.";

const saved = { ...process.env };
afterEach(() => {
  for (const k of ["PAYMENTS_MODE", "STRIPE_SECRET_KEY"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
});

async function receiptRow() {
  const { owner, org } = await activeOrg();
  const campaign = await activeCampaign(org, owner);
  const paid = await paidDonation(campaign.id);
  const db = await testDb();
  const [row] = await db
    .select()
    .from(outbox)
    .where(eq(outbox.dedupeKey, `email:receipt:${paid.id}`));
  expect(row, "receipt queued").toBeDefined();
  return row.payload as unknown as EmailMessage;
}

describe("emails in test mode", () => {
  it("a sandbox donation's receipt in the outbox renders with [Test mode] in the subject and the no-real-payment line in both parts", async () => {
    const message = await receiptRow();
    const email = await renderEmail(message);
    expect(email.subject.startsWith(TEST_MODE_SUBJECT_PREFIX)).toBe(true);
    expect(email.subject).toMatch(/^\[Test mode\] Thank you, Ada! Your receipt for \$25\.00 to /);
    expect(email.html).toContain(NOTE);
    expect(email.text.startsWith(NOTE)).toBe(true);
  });

  it("the same outbox email renders unmarked on a Stripe-mode install", async () => {
    const message = await receiptRow();
    process.env.PAYMENTS_MODE = "stripe";
    process.env.STRIPE_SECRET_KEY = "sk_test_goodfund_test_mode";
    resetEnv();
    const email = await renderEmail(message);
    expect(email.subject).toMatch(/^Thank you, Ada! /);
    expect(email.html).not.toContain("Test mode");
    expect(email.text).not.toContain("Test mode");
    // The mode can also be given explicitly.
    expect((await renderEmail(message, { testMode: true })).subject).toBe(`${TEST_MODE_SUBJECT_PREFIX}${email.subject}`);
  });

  it("the dashboard's emails list shows the subject the email is sent with, [Test mode] included in sandbox mode", async () => {
    const message = await receiptRow();
    const sandbox = emailSubject(message as unknown as Record<string, unknown>);
    expect(sandbox).toBe((await renderEmail(message)).subject);
    expect(sandbox).toMatch(/^\[Test mode\] Thank you, Ada! /);

    process.env.PAYMENTS_MODE = "stripe";
    process.env.STRIPE_SECRET_KEY = "sk_test_goodfund_test_mode";
    resetEnv();
    const live = emailSubject(message as unknown as Record<string, unknown>);
    expect(live).toBe((await renderEmail(message)).subject);
    expect(live).toMatch(/^Thank you, Ada! /);
    // A payload that no longer makes an email (a purged sign-in link) has no subject to show.
    expect(emailSubject({ template: "magic-link", to: "a@example.org", purged: true })).toBeNull();
  });
});
