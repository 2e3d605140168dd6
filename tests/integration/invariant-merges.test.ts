import fc from "fast-check";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { call, newCampaign, post } from "../helpers/api";
import { eventFor, ONE_TIME_KINDS, RECURRING_KINDS, type Gift, type Kind } from "../helpers/card-events";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeOrg } from "../helpers/records";

/**
 * The money invariant (campaign and donor aggregates equal what the donations say) under donor
 * merges mixed into the processor's events: random gifts from a few people, their events
 * duplicated and shuffled, and random merges of those people's records, all running
 * concurrently through the route handlers. Gifts move between donors while their payments
 * succeed, fail, are disputed or refunded, and renewals arrive for plans being moved.
 */
const secret = process.env.PROCESSOR_WEBHOOK_SECRET!;
const signer = new Stripe("sk_test_signer");

/** Delivers one event like the processor: redelivered until acknowledged (a lost race answers 5xx). */
async function deliver(event: object): Promise<void> {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  let last = "";
  for (let attempt = 0; attempt < 6; attempt++) {
    const res = await call("POST", "/api/processor/webhooks", {
      rawBody: payload,
      headers: { "content-type": "application/json", "stripe-signature": header },
    });
    if (res.status === 200) return;
    if (res.status < 500) throw new Error(`delivery refused with ${res.status} ${res.text}`);
    last = `${res.status} ${res.text}`;
  }
  throw new Error(`event never acknowledged: ${last}`);
}

const giftSpec = fc.record({
  campaign: fc.integer({ min: 0, max: 2 }),
  amount: fc.integer({ min: 100, max: 50_000 }),
  recurring: fc.boolean(),
  person: fc.integer({ min: 0, max: 4 }),
  events: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 5 }),
});

type Step = { kind: "event"; event: object } | { kind: "merge"; into: number; from: number };

describe("donor merges mixed with processor events: aggregates always equal the donations", () => {
  it("holds under random merges, duplicated and reordered events, concurrently", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(giftSpec, { minLength: 4, maxLength: 10 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })), { minLength: 2, maxLength: 6 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 1_000_000 })),
        async (specs, merges, random) => {
          const { owner, org } = await activeOrg();
          const plain = await newCampaign(org, owner.token, { status: "ACTIVE", goalAmountCents: 30_000 });
          const parent = await newCampaign(org, owner.token, { status: "ACTIVE", type: "PEER_TO_PEER" });
          const page = await newCampaign(org, owner.token, { status: "ACTIVE", type: "PEER_TO_PEER", parentCampaignId: parent.id });
          const campaigns = [plain, parent, page];

          const steps: Step[] = [];
          for (const s of specs) {
            // Each person gives under two addresses (two donor records for one name), which merges join.
            const res = await post("/api/donations", {
              campaignId: campaigns[s.campaign].id,
              amount: s.amount,
              email: `person${s.person}-${s.amount % 2}@example.org`,
              firstName: `Person${s.person}`,
              lastName: "Merge",
              recurringInterval: s.recurring ? "MONTH" : undefined,
            });
            if (res.status !== 201) throw new Error(`donation not created: ${res.status} ${res.text}`);
            const gift: Gift = {
              id: res.body.id,
              amount: res.body.amount,
              paymentIntentId: res.body.paymentIntentId,
              subscriptionId: res.body.subscriptionId,
              chargeId: `ch_merge_${res.body.id}`,
            };
            const kinds = s.recurring ? RECURRING_KINDS : ONE_TIME_KINDS;
            s.events.forEach((k, i) => steps.push({ kind: "event", event: eventFor(kinds[k % kinds.length] as Kind, gift, i) }));
          }
          const it = random[Symbol.iterator]();
          // Every event once or twice, then the merges, all shuffled together.
          for (const step of [...steps]) if (it.next().value! % 2 === 0) steps.push(step);
          const people = [...new Set(specs.map((s) => s.person))];
          for (const [into, from] of merges)
            steps.push({ kind: "merge", into: people[into % people.length], from: people[from % people.length] });
          for (let i = steps.length - 1; i > 0; i--) {
            const j = it.next().value! % (i + 1);
            [steps[i], steps[j]] = [steps[j], steps[i]];
          }

          const donorsOf = async (person: number) => {
            const res = await call("GET", `/api/orgs/${org.id}/donors?q=Person${person}%20Merge&limit=100`, { token: owner.token });
            return (res.body.data as { id: string }[]).map((d) => d.id);
          };
          const merge = async (into: number, from: number) => {
            // Records of the same person or of two different people: staff merge either.
            const [target] = await donorsOf(into);
            const sources = await donorsOf(from);
            const source = sources.find((id) => id !== target);
            if (!target || !source) return;
            const res = await post(`/api/donors/${target}/merge`, { sourceDonorId: source }, { token: owner.token });
            // A concurrent merge may have removed either donor first.
            expect([200, 404], res.text).toContain(res.status);
          };

          let next = 0;
          await Promise.all(
            Array.from({ length: 6 }, async () => {
              while (next < steps.length) {
                const step = steps[next++];
                if (step.kind === "event") await deliver(step.event);
                else await merge(step.into, step.from);
              }
            }),
          );

          expect(await findViolations(await testDb(), [org.id])).toEqual([]);
        },
      ),
      { numRuns: 8, endOnFailure: true },
    );
  }, 600_000);
});
