/**
 * The emails a refund and a new member cause, through the real routes: POST
 * /api/donations/:id/refund (the sandbox answers with a signed `charge.refunded`, applied like the
 * webhook's), the same event redelivered, and POST /api/orgs/:idOrSlug/members. Each reads the
 * organization's email outbox back and renders what was queued.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { donations, outbox } from "@/db/schema";
import { renderEmail } from "@/lib/email/render";
import type { EmailMessage, MemberInvitationProps, RefundConfirmationProps } from "@/lib/email/types";
import { getEnv } from "@/lib/env";
import { chargeRefundedEvent, deliver, givingSetup, pendingDonation } from "../fixtures/processor";
import { del, newOrg, newUser, patch, post } from "../helpers/api";
import { testDb } from "../helpers/db";

type Queued<P> = { to: string; template: string; props: P; dedupeKey: string };

/** The organization's queued emails of one template. */
async function queued<P>(orgId: string, template: string): Promise<Queued<P>[]> {
  const db = await testDb();
  const rows = await db
    .select({ dedupeKey: outbox.dedupeKey, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.orgId, orgId), eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = ${template}`));
  return rows.map((r) => ({ ...(r.payload as { to: string; template: string; props: P }), dedupeKey: r.dedupeKey }));
}

async function donationRow(id: string) {
  const db = await testDb();
  const [row] = await db.select().from(donations).where(eq(donations.id, id));
  return row;
}

/** A gift paid with the sandbox's test card, as the donate page pays it. */
async function paidGift(campaignId: string, body: Record<string, unknown>) {
  const d = await pendingDonation(campaignId, body);
  const paid = await post("/api/sandbox/payments/confirm", { clientSecret: d.clientSecret, cardNumber: "4242 4242 4242 4242" });
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.status).toBe("SUCCEEDED");
  return d;
}

describe("refund confirmation", () => {
  it("POST /api/donations/:id/refund queues one refund confirmation to the donor, even when charge.refunded is delivered again", async () => {
    const s = await givingSetup(
      { title: "Winter Coats Drive" },
      { name: "Harbor Aid", notificationEmail: "questions@harbor-aid.example.org" },
    );
    const d = await paidGift(s.campaign.id, { amount: 4000, coverFees: true, firstName: "Rosa", lastName: "Refund" });
    const paid = await donationRow(d.id);
    const charged = paid.amount + paid.feeCents;
    expect(paid.feeCents).toBeGreaterThan(0);
    expect(await queued(s.org.id, "refund-confirmation")).toEqual([]);

    const res = await post(`/api/donations/${d.id}/refund`, undefined, { token: s.owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("REFUNDED");

    // The processor delivers the same event again, and another one about the same charge.
    const again = chargeRefundedEvent({ chargeId: paid.chargeId!, paymentIntentId: paid.paymentIntentId, amount: charged });
    expect((await deliver(again)).status).toBe(200);
    expect((await deliver(again)).status).toBe(200);
    expect(
      (await deliver(chargeRefundedEvent({ chargeId: paid.chargeId!, paymentIntentId: paid.paymentIntentId, amount: charged }))).status,
    ).toBe(200);

    const emails = await queued<RefundConfirmationProps>(s.org.id, "refund-confirmation");
    expect(emails).toHaveLength(1);
    const refunded = await donationRow(d.id);
    expect(emails[0]).toEqual({
      template: "refund-confirmation",
      to: d.email,
      dedupeKey: `email:refund:${d.id}`,
      props: {
        donorFirstName: "Rosa",
        donorName: "Rosa Refund",
        donorEmail: d.email,
        refundedAmountCents: charged,
        refundedAt: refunded.updatedAt.toISOString(),
        amountCents: charged,
        currency: "usd",
        donatedAt: paid.succeededAt!.toISOString(),
        campaignTitle: "Winter Coats Drive",
        donationId: d.id,
        orgName: "Harbor Aid",
        orgContactEmail: "questions@harbor-aid.example.org",
        // The gift's language: no locale given, no Accept-Language, the organization's default.
        locale: "en",
        // The organization's time zone, which the email's dates are written in.
        timeZone: "UTC",
      },
    });

    // What the donor reads, marked as a sandbox email.
    const amount = `$${(charged / 100).toFixed(2)}`;
    const email = await renderEmail(emails[0] as EmailMessage<"refund-confirmation">);
    expect(email.subject).toBe(`[Test mode] Your refund of ${amount} from Harbor Aid is on its way`);
    for (const fact of [amount, "Winter Coats Drive", d.id, "5–10 business days", "questions@harbor-aid.example.org"]) {
      expect(email.text).toContain(fact);
    }
  });

  it("a partial refund from the processor's dashboard keeps the gift and emails nothing", async () => {
    const s = await givingSetup();
    const d = await paidGift(s.campaign.id, { amount: 5000 });
    const paid = await donationRow(d.id);
    const res = await deliver(
      chargeRefundedEvent({ chargeId: paid.chargeId!, paymentIntentId: paid.paymentIntentId, amount: 5000, refunded: 1000 }),
    );
    expect(res.status).toBe(200);
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
    expect(await queued(s.org.id, "refund-confirmation")).toEqual([]);
  });
});

describe("member invitation", () => {
  it("POST /api/orgs/:idOrSlug/members queues one invitation with the organization, role, inviter and sign-in link", async () => {
    const owner = await newUser("Olga Owner");
    const { org } = await newOrg(owner, { name: "Harbor Aid" });
    const invitee = `New.Member-${Date.now()}@Example.org`;

    const res = await post(`/api/orgs/${org.slug}/members`, { email: invitee, role: "ADMIN" }, { token: owner.token });
    expect(res.status, res.text).toBe(201);
    const userId = res.body.userId as string;

    const signInUrl = `${getEnv().appUrl}/signin?email=${encodeURIComponent(invitee)}&callbackUrl=${encodeURIComponent(`/dashboard/${org.slug}`)}`;
    const emails = await queued<MemberInvitationProps>(org.id, "member-invitation");
    expect(emails).toEqual([
      {
        template: "member-invitation",
        to: invitee,
        dedupeKey: `email:invitation:${org.id}:${userId}`,
        props: {
          orgName: "Harbor Aid",
          role: "ADMIN",
          memberEmail: invitee,
          invitedBy: { name: "Olga Owner", email: owner.email },
          signInUrl,
        },
      },
    ]);
    // A link to the sign-in page only: no sign-in token is kept in the outbox.
    expect(new URL(signInUrl).pathname).toBe("/signin");
    expect(JSON.stringify(emails[0])).not.toMatch(/token/i);

    const email = await renderEmail(emails[0] as EmailMessage<"member-invitation">);
    expect(email.subject).toBe("[Test mode] Olga Owner invited you to Harbor Aid on Goodfund");
    expect(email.text).toContain("as an Admin");
    expect(email.text).toContain(signInUrl);

    // Adding them again (409), a role change, or removing and re-adding them sends nothing more.
    expect((await post(`/api/orgs/${org.id}/members`, { email: invitee, role: "MEMBER" }, { token: owner.token })).status).toBe(409);
    expect((await patch(`/api/orgs/${org.id}/members/${userId}`, { role: "MEMBER" }, { token: owner.token })).status).toBe(200);
    expect((await del(`/api/orgs/${org.id}/members/${userId}`, { token: owner.token })).status).toBe(204);
    expect((await post(`/api/orgs/${org.id}/members`, { email: invitee, role: "OWNER" }, { token: owner.token })).status).toBe(201);
    expect(await queued(org.id, "member-invitation")).toHaveLength(1);
  });

  it("the owner who created the organization gets no invitation", async () => {
    const { org } = await newOrg();
    expect(await queued(org.id, "member-invitation")).toEqual([]);
  });
});
