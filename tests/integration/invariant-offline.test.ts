import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { patch, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeCampaign, activeOrg, pay, startDonation, type Campaign, type Org } from "../helpers/records";

/**
 * The money invariant (aggregates equal what the donations say) under random sequences mixing
 * card gifts (paid, declined, refunded, through the sandbox processor's events), offline gifts,
 * corrections (amount, date, campaign, across a peer-to-peer parent and its page) and voids,
 * run a few at a time concurrently. Receipt numbers stay gapless (findViolations checks them).
 */
type Op =
  | { kind: "card"; campaign: number; amount: number; declined: boolean }
  | { kind: "refund"; pick: number }
  | { kind: "offline"; campaign: number; amount: number; donor: number; day: number }
  | { kind: "correct"; pick: number; amount: number | null; campaign: number | null; day: number | null }
  | { kind: "void"; pick: number };

const CAMPAIGNS = 3;
const DONORS = 4;
const amount = fc.integer({ min: 100, max: 50_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("card" as const), campaign: fc.nat(CAMPAIGNS - 1), amount, declined: fc.boolean() }),
  fc.record({ kind: fc.constant("refund" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("offline" as const),
    campaign: fc.nat(CAMPAIGNS - 1),
    amount,
    donor: fc.nat(DONORS - 1),
    day: fc.integer({ min: 1, max: 300 }),
  }),
  fc.record({
    kind: fc.constant("correct" as const),
    pick: fc.nat(),
    amount: fc.option(amount),
    campaign: fc.option(fc.nat(CAMPAIGNS - 1)),
    day: fc.option(fc.integer({ min: 1, max: 300 })),
  }),
  fc.record({ kind: fc.constant("void" as const), pick: fc.nat() }),
);

const dayOf = (day: number) => new Date(Date.UTC(new Date().getUTCFullYear() - 1, 0, day, 10)).toISOString();

async function run(o: Op, ctx: { org: Org; owner: TestUser; campaigns: Campaign[]; offline: string[]; cards: string[] }): Promise<void> {
  const token = ctx.owner.token;
  const pick = (list: string[], n: number) => (list.length ? list[n % list.length] : null);
  switch (o.kind) {
    case "card": {
      const started = await startDonation(ctx.campaigns[o.campaign].id, { amount: o.amount, email: `card-${o.campaign}@example.org` });
      const paid = await pay(started.clientSecret, o.declined ? "4000 0000 0000 0002" : "4242 4242 4242 4242");
      if (paid.status === "SUCCEEDED") ctx.cards.push(paid.id);
      return;
    }
    case "refund": {
      const id = pick(ctx.cards, o.pick);
      if (!id) return;
      const res = await post(`/api/donations/${id}/refund`, undefined, { token });
      expect([200, 409], res.text).toContain(res.status);
      return;
    }
    case "offline": {
      const res = await post(
        `/api/orgs/${ctx.org.id}/offline-gifts`,
        {
          campaignId: ctx.campaigns[o.campaign].id,
          amount: o.amount,
          receivedAt: dayOf(o.day),
          method: "CHEQUE",
          donor: { email: `offline-${o.donor}@example.org`, firstName: "Ada", lastName: `Donor ${o.donor}` },
        },
        { token },
      );
      expect(res.status, res.text).toBe(201);
      ctx.offline.push(res.body.id);
      return;
    }
    case "correct": {
      const id = pick(ctx.offline, o.pick);
      if (!id) return;
      const body = {
        ...(o.amount !== null ? { amount: o.amount } : {}),
        ...(o.campaign !== null ? { campaignId: ctx.campaigns[o.campaign].id } : {}),
        ...(o.day !== null ? { receivedAt: dayOf(o.day) } : { reference: `ref-${o.pick}` }),
      };
      const res = await patch(`/api/donations/${id}`, body, { token });
      expect([200, 409], res.text).toContain(res.status);
      return;
    }
    case "void": {
      const id = pick(ctx.offline, o.pick);
      if (!id) return;
      const res = await post(`/api/donations/${id}/void`, { reason: "Bounced" }, { token });
      expect([200, 409], res.text).toContain(res.status);
      return;
    }
  }
}

describe("offline gifts, corrections and voids: aggregates always equal the donations", () => {
  it("holds for random sequences mixing card gifts, refunds, offline gifts, corrections and voids, run concurrently", async () => {
    const db = await testDb();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), async (batches) => {
        const { owner, org } = await activeOrg();
        const parent = await activeCampaign(org, owner, {
          type: "PEER_TO_PEER",
          goalAmountCents: 100_000,
          matchingEnabled: true,
          matchingMaxCents: 20_000,
        });
        const page = await activeCampaign(org, owner, { title: "A fundraiser's page", parentCampaignId: parent.id });
        const plain = await activeCampaign(org, owner, { title: "General fund" });
        const ctx = { org, owner, campaigns: [parent, page, plain], offline: [] as string[], cards: [] as string[] };
        for (const batch of batches) await Promise.all(batch.map((o) => run(o, ctx)));
        expect(await findViolations(db, [org.id])).toEqual([]);
      }),
      { numRuns: 6 },
    );
  }, 240_000);
});
