import { eq } from "drizzle-orm";
import fc from "fast-check";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventFor, ONE_TIME_KINDS, RECURRING_KINDS, type Gift, type Kind } from "../helpers/card-events";
import { campaigns as campaignsTable } from "@/db/schema";
import { findViolations } from "../helpers/invariants";
import { call, newCampaign, newOrg, post } from "../helpers/api";
import { testDb } from "../helpers/db";
import { startServer, ensureBuild, type RunningServer } from "../helpers/server";

/**
 * The money invariant under hostile delivery: random sequences of the processor's events for
 * many donations, each delivered several times, shuffled, concurrently. On Postgres the
 * deliveries go over HTTP to two real app instances sharing the database; on PGlite (one process
 * by construction) through the route handlers concurrently. Afterwards every aggregate must equal
 * what the donations say and every receipt must have been enqueued exactly once.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const secret = process.env.PROCESSOR_WEBHOOK_SECRET!;
const signer = new Stripe("sk_test_signer");
let instances: RunningServer[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  await ensureBuild();
  const env = {
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET,
    PROCESSOR_WEBHOOK_SECRET: secret,
    WORKER_DISABLED: "1",
    SEED_DEMO: "0",
    STRIPE_SECRET_KEY: undefined,
    PAYMENTS_MODE: "sandbox",
    SECRETS_ENCRYPTION_KEY: process.env.SECRETS_ENCRYPTION_KEY,
  };
  instances = await Promise.all([startServer(env), startServer(env)]);
}, 300_000);

afterAll(async () => {
  await Promise.all(instances.map((s) => s.stop()));
});

let lastError = "";
async function deliver(event: object, instance: number): Promise<number> {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  // Like the processor, redeliver until acknowledged (a deadlock or lost race answers 5xx).
  for (let attempt = 0; attempt < 6; attempt++) {
    let status: number;
    if (onPostgres) {
      const res = await fetch(`${instances[instance % 2].url}/api/processor/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": header },
        body: payload,
      });
      status = res.status;
      lastError = `${status} ${await res.text()}`;
    } else {
      status = (
        await call("POST", "/api/processor/webhooks", {
          rawBody: payload,
          headers: { "content-type": "application/json", "stripe-signature": header },
        })
      ).status;
    }
    if (status === 200) return attempt;
    if (status < 500) throw new Error(`delivery refused with ${status}`);
  }
  const logs = instances
    .map((s) =>
      s
        .output()
        .split("\n")
        .filter((l) => l.includes('"error"'))
        .slice(-3)
        .join("\n"),
    )
    .join("\n");
  throw new Error(`event never acknowledged: ${lastError}\n${logs}`);
}

async function activeOrg() {
  const { owner, org } = await newOrg();
  const ob = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
  await post(`/api/sandbox/accounts/${ob.body.processorAccountId}/complete`, undefined, { token: owner.token });
  return { owner, org };
}

const giftSpec = fc.record({
  campaign: fc.integer({ min: 0, max: 5 }),
  amount: fc.integer({ min: 100, max: 50_000 }),
  recurring: fc.boolean(),
  donor: fc.integer({ min: 0, max: 3 }),
  events: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 6 }),
});

describe("processor events: aggregates always equal the donations", () => {
  it(`holds under duplicated, reordered, concurrent delivery ${onPostgres ? "to two app instances" : "through the route handlers"}`, async () => {
    let retries = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(giftSpec, { minLength: 4, maxLength: 10 }),
        fc.integer({ min: 1, max: 3 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 1_000_000 })),
        async (specs, copies, random) => {
          const { owner, org } = await activeOrg();
          const matched = await newCampaign(org, owner.token, {
            status: "ACTIVE",
            goalAmountCents: 40_000,
            matchingEnabled: true,
            matchingRatioPct: 150,
            matchingMaxCents: 20_000,
          });
          const parent = await newCampaign(org, owner.token, { status: "ACTIVE", type: "PEER_TO_PEER", goalAmountCents: 100_000 });
          const page = await newCampaign(org, owner.token, { status: "ACTIVE", type: "PEER_TO_PEER", parentCampaignId: parent.id });
          const event = await newCampaign(org, owner.token, {
            status: "ACTIVE",
            type: "EVENT",
            ticketPriceCents: 1_000,
            ticketCapacity: 1_000,
            allowRecurring: false,
          });
          // A team of supporters' pages under the parent: a gift to the member's page counts on it, its team and the parent.
          const team = await newCampaign(org, owner.token, { status: "ACTIVE", type: "PEER_TO_PEER", parentCampaignId: parent.id });
          const member = await newCampaign(org, owner.token, { status: "ACTIVE", type: "PEER_TO_PEER", parentCampaignId: parent.id });
          const db = await testDb();
          await db.update(campaignsTable).set({ isTeam: true }).where(eq(campaignsTable.id, team.id));
          await db.update(campaignsTable).set({ teamId: team.id }).where(eq(campaignsTable.id, member.id));
          const campaigns = [matched, parent, page, event, team, member];

          const gifts: { gift: Gift; kinds: Kind[] }[] = [];
          for (const s of specs) {
            const c = campaigns[s.campaign];
            const isEvent = c.id === event.id;
            const recurring = s.recurring && !isEvent;
            const tickets = isEvent ? 1 + (s.amount % 3) : undefined;
            const res = await post("/api/donations", {
              campaignId: c.id,
              amount: isEvent ? tickets! * 1_000 : s.amount,
              email: `donor${s.donor}@example.org`,
              firstName: `Donor${s.donor}`,
              tickets,
              recurringInterval: recurring ? "MONTH" : undefined,
            });
            if (res.status !== 201) throw new Error(`donation not created: ${res.status} ${res.text}`);
            const kinds = recurring ? RECURRING_KINDS : ONE_TIME_KINDS;
            gifts.push({
              gift: {
                id: res.body.id,
                amount: res.body.amount,
                paymentIntentId: res.body.paymentIntentId,
                subscriptionId: res.body.subscriptionId,
                chargeId: `ch_prop_${res.body.id}`,
              },
              kinds: s.events.map((k) => kinds[k % kinds.length]),
            });
          }

          const events = gifts.flatMap(({ gift, kinds }) => kinds.map((k, i) => eventFor(k, gift, i)));
          const it = random[Symbol.iterator]();
          // Each event arrives one to `copies` times.
          const deliveries = events.flatMap((e) => Array.from({ length: 1 + (it.next().value! % copies) }, () => e));
          for (let i = deliveries.length - 1; i > 0; i--) {
            const j = it.next().value! % (i + 1);
            [deliveries[i], deliveries[j]] = [deliveries[j], deliveries[i]];
          }
          // Up to eight deliveries in flight at once, spread over the instances.
          let next = 0;
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              while (next < deliveries.length) {
                const d = deliveries[next++];
                retries += await deliver(d, it.next().value!);
              }
            }),
          );

          const violations = await findViolations(await testDb(), [org.id]);
          expect(violations).toEqual([]);
        },
      ),
      { numRuns: onPostgres ? 12 : 8, endOnFailure: true },
    );
    if (retries > 0) console.info(`invariants: ${retries} deliveries answered 5xx and were redelivered`);
  }, 600_000);
});
