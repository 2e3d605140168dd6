/**
 * Outbound webhooks, end to end: endpoints through the real route handlers,
 * events emitted by the real services and processor events (sandbox mode), delivered by the real
 * worker (`runWorkerOnce` filtered to this file's organizations, so the file can share one
 * Postgres database with others) to a local receiver that checks the Standard Webhooks signature
 * with the `standardwebhooks` package. The receiver listens on 127.0.0.1, so the file allows
 * private webhook URLs, except in the SSRF tests, which switch it off again.
 */
import { randomBytes } from "node:crypto";
import dns from "node:dns";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db";
import { campaigns, donations, outbox, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhooks";
import { DISABLED_REASON } from "@/lib/webhooks-out/deliver";
import { newWebhookSecret, sealWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";
import {
  activeCampaign,
  activeOrg,
  deliver as deliverProcessorEvent,
  disputeEvent,
  fixture,
  paymentSucceededEvent,
  pendingDonation,
  stripeId,
  type OrgSetup,
} from "../fixtures/processor";
import { del, get, newCampaign, newOrg, patch, post, type ApiResponse, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";

// ---------------------------------------------------------------------------------------------
// A local receiver: records every request; answers 200 unless its path is told otherwise.

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

const receiver = {
  server: undefined as Server | undefined,
  base: "",
  received: [] as Received[],
  status: new Map<string, number>(),
};

function startReceiver(): Promise<void> {
  receiver.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      receiver.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = receiver.status.get(path) ?? 200;
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "thanks" : `receiver failed with ${status}: ${"x".repeat(2000)}`);
    });
  });
  return new Promise((resolve) => {
    receiver.server!.listen(0, "127.0.0.1", () => {
      receiver.base = `http://127.0.0.1:${(receiver.server!.address() as AddressInfo).port}`;
      resolve();
    });
  });
}

const uid = () => randomBytes(6).toString("hex");
const hook = () => {
  const path = `/hooks/${uid()}`;
  return { path, url: `${receiver.base}${path}` };
};
const receivedAt = (path: string) => receiver.received.filter((r) => r.path === path);

type Payload = { id: string; type: string; createdAt: string; data: Record<string, any> };

/** What arrived at `path`, each verified with the secret (throws on a bad signature). */
function verifiedAt(path: string, secret: string): Payload[] {
  const wh = new Webhook(secret);
  return receivedAt(path).map((r) => wh.verify(r.body, r.headers as Record<string, string>) as Payload);
}

// ---------------------------------------------------------------------------------------------
// Environment and data of this file only.

const savedFlag = process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
function setAllowPrivate(on: boolean) {
  if (on) process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  else delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  resetEnv();
}

let db: Db;
const myOrgs: string[] = [];

beforeAll(async () => {
  db = await testDb();
  await startReceiver();
});

beforeEach(() => setAllowPrivate(true));

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  // Leave nothing of this file's for another file's worker to try once the receiver is gone.
  if (myOrgs.length > 0) {
    await db
      .update(outbox)
      .set({ status: "FAILED", lastError: "test file finished" })
      .where(and(inArray(outbox.orgId, myOrgs), eq(outbox.kind, "webhook"), eq(outbox.status, "PENDING")));
  }
  if (savedFlag === undefined) delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  else process.env.ALLOW_PRIVATE_WEBHOOK_URLS = savedFlag;
  resetEnv();
  await new Promise<void>((resolve) => receiver.server?.close(() => resolve()));
});

type Org = { id: string; slug: string } & Record<string, any>;
type Endpoint = { id: string; secret: string; path: string; url: string } & Record<string, any>;

async function plainOrg(): Promise<{ owner: TestUser; org: Org }> {
  const made = await newOrg();
  myOrgs.push(made.org.id);
  return made;
}

async function givingOrg(): Promise<OrgSetup> {
  const setup = await activeOrg();
  myOrgs.push(setup.org.id);
  return setup;
}

const endpointsPath = (org: { id: string }) => `/api/orgs/${org.id}/webhook-endpoints`;

async function addEndpoint(org: { id: string }, token: string, body: Record<string, unknown> = {}): Promise<Endpoint> {
  const target = hook();
  const res = await post(endpointsPath(org), { url: target.url, ...body }, { token });
  expect(res.status, res.text).toBe(201);
  return { ...res.body, path: target.path, url: target.url };
}

const runWorker = (org: { id: string }) => runWorkerOnce(db, { orgIds: [org.id] });

async function eventsOf(orgId: string, type?: string) {
  return db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.orgId, orgId), type ? eq(webhookEvents.type, type) : undefined))
    .orderBy(asc(webhookEvents.createdAt));
}

async function webhookRows(orgId: string) {
  return db
    .select()
    .from(outbox)
    .where(and(eq(outbox.orgId, orgId), eq(outbox.kind, "webhook")))
    .orderBy(asc(outbox.id));
}

async function endpointRow(id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

/** Makes every pending webhook row of the organization due now (time passing). */
async function makeDue(orgId: string) {
  await db
    .update(outbox)
    .set({ nextAttemptAt: sql`now() - interval '1 second'` })
    .where(and(eq(outbox.orgId, orgId), eq(outbox.kind, "webhook"), eq(outbox.status, "PENDING")));
}

function expectValidation(res: ApiResponse, field: string, message?: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ error: "Validation failed", status: 400 });
  const messages = res.body.details.fieldErrors[field];
  expect(messages, JSON.stringify(res.body.details)).toEqual(expect.arrayContaining([expect.any(String)]));
  if (message) expect(messages).toContain(message);
}

const confirmCard = (clientSecret: string, cardNumber = "4242 4242 4242 4242") =>
  post("/api/sandbox/payments/confirm", { clientSecret, cardNumber });

// ---------------------------------------------------------------------------------------------

describe("webhook endpoints CRUD", () => {
  it("POST /api/orgs/:idOrSlug/webhook-endpoints shows the secret once; list and get never do", async () => {
    const { owner, org } = await plainOrg();
    const target = hook();
    const res = await post(
      endpointsPath(org),
      { url: target.url, description: "CRM <b>sync</b>", eventTypes: ["campaign.created", "campaign.created"] },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^we_/),
      orgId: org.id,
      url: target.url,
      description: "CRM sync",
      eventTypes: ["campaign.created"],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(Buffer.from(res.body.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);

    const list = await get(endpointsPath(org), { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, limit: 1, total: 1, hasMore: false });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).not.toHaveProperty("secret");
    const { secret: _secret, ...withoutSecret } = res.body;
    expect(list.body.data[0]).toEqual(withoutSecret);
    expect(list.text).not.toContain(res.body.secret.slice(6, 20));

    const one = await get(`${endpointsPath(org)}/${res.body.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(withoutSecret);

    const bySlug = await get(`/api/orgs/${org.slug}/webhook-endpoints/${res.body.id}`, { token: owner.token });
    expect(bySlug.status).toBe(200);
  });

  it("POST /api/orgs/:idOrSlug/webhook-endpoints validates the URL and the event types", async () => {
    const { owner, org } = await plainOrg();
    const create = (body: unknown) => post(endpointsPath(org), body, { token: owner.token });
    expectValidation(await create({}), "url");
    expectValidation(await create({ url: "not a url" }), "url");
    expectValidation(await create({ url: "ftp://example.org/x" }), "url");
    expectValidation(await create({ url: hook().url, eventTypes: ["donation.created"] }), "eventTypes.0");
    expectValidation(await create({ url: hook().url, eventTypes: "donation.succeeded" }), "eventTypes");
    expect((await create({ url: hook().url, eventTypes: [...WEBHOOK_EVENT_TYPES] })).status).toBe(201);
    // Plain http is for private (development) setups only.
    setAllowPrivate(false);
    expectValidation(await create({ url: "http://93.184.215.14/hooks" }), "url", "Must be an https URL");
    expect((await create({ url: "https://93.184.215.14/hooks" })).status).toBe(201);
  });

  it("PATCH and DELETE /api/orgs/:idOrSlug/webhook-endpoints/:id update and remove an endpoint", async () => {
    const { owner, org } = await plainOrg();
    const endpoint = await addEndpoint(org, owner.token);
    const path = `${endpointsPath(org)}/${endpoint.id}`;
    const other = hook();
    const res = await patch(path, { url: other.url, description: "Renamed", eventTypes: ["payout.paid"] }, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ url: other.url, description: "Renamed", eventTypes: ["payout.paid"], enabled: true });
    expect(res.body).not.toHaveProperty("secret");
    expectValidation(await patch(path, { rotateSecret: false }, { token: owner.token }), "rotateSecret");
    expectValidation(await patch(path, { url: "mailto:x@example.org" }, { token: owner.token }), "url");

    // Another organization's endpoint does not exist here.
    const elsewhere = await plainOrg();
    const foreign = await get(`${endpointsPath(elsewhere.org)}/${endpoint.id}`, { token: elsewhere.owner.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "Webhook endpoint not found", status: 404 });

    expect((await del(path, { token: owner.token })).status).toBe(204);
    expect((await get(path, { token: owner.token })).body).toEqual({ error: "Webhook endpoint not found", status: 404 });
    expect((await get(endpointsPath(org), { token: owner.token })).body.data).toEqual([]);
  });
});

describe("events emitted in the transaction of the change", () => {
  it("a donation succeeding through the sandbox enqueues donation.succeeded with it, and the worker delivers it signed", async () => {
    const setup = await givingOrg();
    const campaign = await activeCampaign(setup);
    const endpoint = await addEndpoint(setup.org, setup.owner.token, { eventTypes: ["donation.succeeded", "donation.failed"] });
    const gift = await pendingDonation(campaign.id, { amount: 4200 });
    expect(await eventsOf(setup.org.id, "donation.succeeded")).toEqual([]);

    const confirmed = await confirmCard(gift.clientSecret);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.status).toBe("SUCCEEDED");

    const [event] = await eventsOf(setup.org.id, "donation.succeeded");
    expect(event.id).toMatch(/^evt_/);
    expect(event.payload).toMatchObject({
      id: event.id,
      type: "donation.succeeded",
      data: { id: gift.id, status: "SUCCEEDED", amount: 4200 },
    });
    const [row] = await webhookRows(setup.org.id);
    expect(row).toMatchObject({
      dedupeKey: `webhook:${event.id}:${endpoint.id}`,
      status: "PENDING",
      payload: { eventId: event.id, endpointId: endpoint.id },
    });
    // One transaction wrote the donation's new status, the event and its outbox row.
    const xmin = async (table: typeof donations | typeof webhookEvents | typeof outbox, where: ReturnType<typeof eq>) =>
      (
        await db
          .select({ x: sql<string>`xmin::text` })
          .from(table)
          .where(where)
      )[0].x;
    const tx = await xmin(donations, eq(donations.id, gift.id));
    expect(await xmin(webhookEvents, eq(webhookEvents.id, event.id))).toBe(tx);
    expect(await xmin(outbox, eq(outbox.id, row.id))).toBe(tx);

    await runWorker(setup.org);
    const arrived = receivedAt(endpoint.path);
    expect(arrived).toHaveLength(1);
    const headers = arrived[0].headers;
    expect(headers["webhook-id"]).toBe(event.id);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["user-agent"]).toBe("Goodfund-Webhooks/1");
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers["webhook-signature"]).toMatch(/^v1,/);
    const [payload] = verifiedAt(endpoint.path, endpoint.secret);
    expect(payload).toEqual({
      id: event.id,
      type: "donation.succeeded",
      createdAt: event.createdAt.toISOString(),
      data: expect.any(Object),
    });
    const shown = await get(`/api/donations/${gift.id}`, { token: setup.owner.token });
    const { timeline: _timeline, ...donation } = shown.body;
    expect(payload.data).toEqual(donation);
    // Someone else's secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(arrived[0].body, headers as Record<string, string>),
    ).toThrow();

    const log = await get(`${endpointsPath(setup.org)}/${endpoint.id}/deliveries`, { token: setup.owner.token });
    expect(log.status).toBe(200);
    expect(log.body.pagination).toEqual({ page: 1, limit: 25, total: 1, hasMore: false });
    expect(log.body.data[0]).toEqual({
      id: expect.any(String),
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: "donation.succeeded",
      attempt: 1,
      success: true,
      statusCode: 200,
      error: null,
      latencyMs: expect.any(Number),
      responseBody: "thanks",
      createdAt: expect.any(String),
    });
    expect((await webhookRows(setup.org.id))[0]).toMatchObject({ status: "SENT", attempts: 1 });

    // The same processor event again (a no-op move) emits nothing more.
    const [stored] = await db.select().from(donations).where(eq(donations.id, gift.id));
    const again = await deliverProcessorEvent(paymentSucceededEvent({ ...gift, paymentIntentId: stored.paymentIntentId }));
    expect(again.status, again.text).toBe(200);
    expect(await eventsOf(setup.org.id, "donation.succeeded")).toHaveLength(1);

    // A declined card: donation.failed.
    const declined = await pendingDonation(campaign.id);
    expect((await confirmCard(declined.clientSecret, "4000 0000 0000 0002")).body.status).toBe("FAILED");
    await runWorker(setup.org);
    expect(verifiedAt(endpoint.path, endpoint.secret).map((p) => [p.type, p.data.id])).toEqual([
      ["donation.succeeded", gift.id],
      ["donation.failed", declined.id],
    ]);
  });

  it("disputes, lost disputes, recurring plans and payouts emit their events", async () => {
    const setup = await givingOrg();
    const campaign = await activeCampaign(setup);
    const endpoint = await addEndpoint(setup.org, setup.owner.token);

    const gift = await pendingDonation(campaign.id);
    await confirmCard(gift.clientSecret);
    const [row] = await db.select().from(donations).where(eq(donations.id, gift.id));
    const dispute = { disputeId: stripeId("dp_1"), chargeId: row.chargeId!, paymentIntentId: row.paymentIntentId, amount: row.amount };
    expect((await deliverProcessorEvent(disputeEvent("charge.dispute.created", dispute))).status).toBe(200);
    expect((await deliverProcessorEvent(disputeEvent("charge.dispute.closed", { ...dispute, status: "lost" }))).status).toBe(200);

    const monthly = await pendingDonation(campaign.id, { recurringInterval: "MONTH", amount: 1500 });
    expect((await confirmCard(monthly.clientSecret)).body.status).toBe("SUCCEEDED");
    const cancel = fixture("customer.subscription.deleted", { data: { object: { id: monthly.subscriptionId } } });
    expect((await deliverProcessorEvent(cancel)).status).toBe(200);
    // A second cancellation of the same plan is not a second event.
    expect(
      (await deliverProcessorEvent(fixture("customer.subscription.deleted", { data: { object: { id: monthly.subscriptionId } } }))).status,
    ).toBe(200);

    const payoutId = stripeId("po_1");
    expect(
      (await deliverProcessorEvent(fixture("payout.paid", { account: setup.accountId, data: { object: { id: payoutId } } }))).status,
    ).toBe(200);
    const failedPayout = stripeId("po_1");
    const failed = fixture("payout.failed", { account: setup.accountId, data: { object: { id: failedPayout } } });
    expect((await deliverProcessorEvent(failed)).status).toBe(200);

    await runWorker(setup.org);
    const got = verifiedAt(endpoint.path, endpoint.secret);
    const summary = got.map((p) => `${p.type} ${p.data.id}`);
    expect(summary).toEqual(
      expect.arrayContaining([
        `donation.succeeded ${gift.id}`,
        `donation.disputed ${gift.id}`,
        `donation.refunded ${gift.id}`,
        `donation.succeeded ${monthly.id}`,
        `recurring_plan.created ${monthly.recurringPlanId}`,
        `recurring_plan.canceled ${monthly.recurringPlanId}`,
        `payout.paid ${payoutId}`,
        `payout.failed ${failedPayout}`,
      ]),
    );
    expect(summary.filter((s) => s.startsWith("recurring_plan."))).toHaveLength(2);
    const created = got.find((p) => p.type === "recurring_plan.created")!;
    expect(created.data).toMatchObject({
      status: "ACTIVE",
      amount: 1500,
      interval: "MONTH",
      donationCount: 1,
      subscriptionId: monthly.subscriptionId,
    });
    expect(got.find((p) => p.type === "recurring_plan.canceled")!.data).toMatchObject({
      status: "CANCELED",
      canceledAt: expect.any(String),
    });
    expect(got.find((p) => p.type === "payout.paid")!.data).toMatchObject({
      orgId: setup.org.id,
      status: "paid",
      amount: 48250,
      currency: "usd",
    });
    expect(got.find((p) => p.type === "donation.disputed")!.data.status).toBe("DISPUTED");
    // Every delivery of this run has its own event ID.
    expect(new Set(got.map((p) => p.id)).size).toBe(got.length);
  });

  it("campaign changes emit created, updated, published and ended, filtered by each endpoint's event types", async () => {
    const { owner, org } = await plainOrg();
    const all = await addEndpoint(org, owner.token);
    const updatesOnly = await addEndpoint(org, owner.token, { eventTypes: ["campaign.updated"] });
    const donationsOnly = await addEndpoint(org, owner.token, { eventTypes: ["donation.succeeded"] });

    const campaign = await newCampaign(org, owner.token, { title: "Roof repairs" });
    const change = (body: Record<string, unknown>) => patch(`/api/campaigns/${campaign.id}`, body, { token: owner.token });
    expect((await change({ title: "Roof and gutter repairs" })).status).toBe(200);
    expect((await change({ status: "ACTIVE" })).status).toBe(200);
    expect((await change({ status: "PAUSED" })).status).toBe(200);
    expect((await change({ status: "ENDED" })).status).toBe(200);
    // A refused change emits nothing.
    expect((await change({ status: "ACTIVE" })).status).toBe(409);
    const published = await newCampaign(org, owner.token, { title: "Open at once", status: "ACTIVE" });

    // Only endpoints subscribed to a type get an outbox row for it.
    const rows = await webhookRows(org.id);
    expect(rows.filter((r) => r.payload.endpointId === donationsOnly.id)).toEqual([]);
    expect(rows.filter((r) => r.payload.endpointId === updatesOnly.id)).toHaveLength(4);

    await runWorker(org);
    const types = (e: Endpoint) => verifiedAt(e.path, e.secret).map((p) => `${p.type} ${p.data.id} ${p.data.status}`);
    expect(types(all)).toEqual([
      `campaign.created ${campaign.id} DRAFT`,
      `campaign.updated ${campaign.id} DRAFT`,
      `campaign.updated ${campaign.id} ACTIVE`,
      `campaign.published ${campaign.id} ACTIVE`,
      `campaign.updated ${campaign.id} PAUSED`,
      `campaign.updated ${campaign.id} ENDED`,
      `campaign.ended ${campaign.id} ENDED`,
      `campaign.created ${published.id} ACTIVE`,
      `campaign.published ${published.id} ACTIVE`,
    ]);
    expect(verifiedAt(all.path, all.secret)[1].data.title).toBe("Roof and gutter repairs");
    expect(types(updatesOnly)).toEqual([
      `campaign.updated ${campaign.id} DRAFT`,
      `campaign.updated ${campaign.id} ACTIVE`,
      `campaign.updated ${campaign.id} PAUSED`,
      `campaign.updated ${campaign.id} ENDED`,
    ]);
    expect(receivedAt(donationsOnly.path)).toEqual([]);
    // The event rows exist whether or not anyone listens.
    expect(await eventsOf(org.id, "campaign.ended")).toHaveLength(1);
  });

  it("the worker's scheduled transitions emit campaign.published and campaign.ended", async () => {
    const { owner, org } = await plainOrg();
    const endpoint = await addEndpoint(org, owner.token, { eventTypes: ["campaign.published", "campaign.ended"] });
    const draft = await newCampaign(org, owner.token, { title: "Scheduled" });
    const running = await newCampaign(org, owner.token, { title: "Ending", status: "ACTIVE" });
    await db
      .update(campaigns)
      .set({ scheduledPublishAt: sql`now() - interval '1 minute'` })
      .where(eq(campaigns.id, draft.id));
    await db
      .update(campaigns)
      .set({ endDate: sql`now() - interval '1 minute'` })
      .where(eq(campaigns.id, running.id));
    await runWorker(org);
    await runWorker(org);
    expect(verifiedAt(endpoint.path, endpoint.secret).map((p) => `${p.type} ${p.data.id} ${p.data.status}`)).toEqual([
      `campaign.published ${running.id} ACTIVE`,
      `campaign.published ${draft.id} ACTIVE`,
      `campaign.ended ${running.id} ENDED`,
    ]);
  });

  it("an organization without endpoints gets event rows and nothing in the outbox", async () => {
    const { owner, org } = await plainOrg();
    await newCampaign(org, owner.token);
    expect(await eventsOf(org.id)).toHaveLength(1);
    expect(await webhookRows(org.id)).toEqual([]);
  });
});

describe("delivery: retries, log, manual retry, test ping", () => {
  it("a failing receiver is logged with status code and latency and retried with backoff; the retry succeeds", async () => {
    const { owner, org } = await plainOrg();
    const endpoint = await addEndpoint(org, owner.token, { eventTypes: ["campaign.created"] });
    receiver.status.set(endpoint.path, 500);
    const campaign = await newCampaign(org, owner.token);

    const started = Date.now();
    await runWorker(org);
    const [row] = await webhookRows(org.id);
    expect(row).toMatchObject({ status: "PENDING", attempts: 1, lastError: "HTTP 500" });
    const delay = row.nextAttemptAt.getTime() - started;
    expect(delay).toBeGreaterThan(20_000);
    expect(delay).toBeLessThanOrEqual(31_000);
    expect((await endpointRow(endpoint.id)).failingSince).toBeInstanceOf(Date);

    const logPath = `${endpointsPath(org)}/${endpoint.id}/deliveries`;
    let log = await get(logPath, { token: owner.token });
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ attempt: 1, success: false, statusCode: 500, error: null, eventType: "campaign.created" });
    expect(log.body.data[0].latencyMs).toEqual(expect.any(Number));
    expect(log.body.data[0].responseBody).toMatch(/^receiver failed with 500: x+$/);
    expect(Buffer.byteLength(log.body.data[0].responseBody)).toBe(1024);

    // Not due yet: nothing is sent.
    receiver.status.delete(endpoint.path);
    await runWorker(org);
    expect(receivedAt(endpoint.path)).toHaveLength(1);

    await makeDue(org.id);
    await runWorker(org);
    const arrived = receivedAt(endpoint.path);
    expect(arrived).toHaveLength(2);
    expect(arrived[1].headers["webhook-id"]).toBe(arrived[0].headers["webhook-id"]);
    expect(arrived[1].body).toBe(arrived[0].body);
    expect(verifiedAt(endpoint.path, endpoint.secret).map((p) => p.data.id)).toEqual([campaign.id, campaign.id]);
    expect((await webhookRows(org.id))[0]).toMatchObject({ status: "SENT", attempts: 2 });
    expect((await endpointRow(endpoint.id)).failingSince).toBeNull();

    log = await get(logPath, { token: owner.token });
    expect(log.body.data.map((d: any) => [d.attempt, d.statusCode, d.success])).toEqual([
      [2, 200, true],
      [1, 500, false],
    ]);
    const paged = await get(`${logPath}?limit=1&page=2`, { token: owner.token });
    expect(paged.body.pagination).toEqual({ page: 2, limit: 1, total: 2, hasMore: false });
    expect(paged.body.data[0].statusCode).toBe(500);
    expectValidation(await get(`${logPath}?limit=101`, { token: owner.token }), "limit");
  });

  it("a receiver that does not answer is logged as an error with no status code", async () => {
    const { owner, org } = await plainOrg();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const res = await post(endpointsPath(org), { url: `http://127.0.0.1:${port}/gone` }, { token: owner.token });
    expect(res.status).toBe(201);
    await newCampaign(org, owner.token);
    await runWorker(org);
    const log = await get(`${endpointsPath(org)}/${res.body.id}/deliveries`, { token: owner.token });
    expect(log.body.data[0]).toMatchObject({
      statusCode: null,
      success: false,
      error: expect.stringContaining("ECONNREFUSED"),
      responseBody: null,
    });
    expect((await webhookRows(org.id))[0]).toMatchObject({ status: "PENDING", lastError: expect.stringContaining("ECONNREFUSED") });
  });

  it("POST …/deliveries/:deliveryId/retry sends the event again now; POST …/test pings this endpoint only", async () => {
    const { owner, org } = await plainOrg();
    const endpoint = await addEndpoint(org, owner.token, { eventTypes: ["campaign.created"] });
    const bystander = await addEndpoint(org, owner.token);
    await newCampaign(org, owner.token);
    await runWorker(org);
    const base = `${endpointsPath(org)}/${endpoint.id}`;
    const [delivery] = (await get(`${base}/deliveries`, { token: owner.token })).body.data;

    const retried = await post(`${base}/deliveries/${delivery.id}/retry`, undefined, { token: owner.token });
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toEqual({ eventId: delivery.eventId, endpointId: endpoint.id });
    // Asked twice before it went out: one retry.
    expect((await post(`${base}/deliveries/${delivery.id}/retry`, undefined, { token: owner.token })).status).toBe(202);
    const keys = (await webhookRows(org.id)).map((r) => r.dedupeKey);
    expect(keys.filter((k) => k.startsWith(`webhook:${delivery.eventId}:${endpoint.id}:retry:`))).toEqual([
      `webhook:${delivery.eventId}:${endpoint.id}:retry:1`,
    ]);

    const ping = await post(`${base}/test`, undefined, { token: owner.token });
    expect(ping.status, ping.text).toBe(202);
    expect(ping.body).toEqual({ eventId: expect.stringMatching(/^evt_/), endpointId: endpoint.id });

    await runWorker(org);
    const got = verifiedAt(endpoint.path, endpoint.secret);
    expect(got.map((p) => p.type)).toEqual(["campaign.created", "campaign.created", "webhook.test"]);
    expect(got[1].id).toBe(got[0].id);
    expect(got[2]).toMatchObject({ id: ping.body.eventId, data: { endpointId: endpoint.id } });
    expect(receivedAt(bystander.path).map((r) => JSON.parse(r.body).type)).toEqual(["campaign.created"]);

    // A later retry is a new run.
    expect((await post(`${base}/deliveries/${delivery.id}/retry`, undefined, { token: owner.token })).status).toBe(202);
    await runWorker(org);
    expect(receivedAt(endpoint.path)).toHaveLength(4);

    const unknown = await post(`${base}/deliveries/whd_unknown/retry`, undefined, { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "Delivery not found", status: 404 });
    // A delivery of another endpoint is not one of this endpoint's.
    const [theirs] = (await get(`${endpointsPath(org)}/${bystander.id}/deliveries`, { token: owner.token })).body.data;
    expect((await post(`${base}/deliveries/${theirs.id}/retry`, undefined, { token: owner.token })).status).toBe(404);
  });

  it("a disabled endpoint gets nothing, and what was queued for it is dropped into the log", async () => {
    const { owner, org } = await plainOrg();
    const endpoint = await addEndpoint(org, owner.token);
    const path = `${endpointsPath(org)}/${endpoint.id}`;
    await newCampaign(org, owner.token, { title: "Queued before disabling" });
    const off = await patch(path, { enabled: false }, { token: owner.token });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, disabledReason: "Disabled by an administrator" });
    await newCampaign(org, owner.token, { title: "Created while disabled" });
    expect(await webhookRows(org.id)).toHaveLength(1);

    await runWorker(org);
    expect(receivedAt(endpoint.path)).toEqual([]);
    expect((await webhookRows(org.id))[0]).toMatchObject({ status: "SENT", lastError: "endpoint disabled; not sent" });
    const log = (await get(`${path}/deliveries`, { token: owner.token })).body.data;
    expect(log).toEqual([
      expect.objectContaining({ statusCode: null, success: false, error: "Endpoint disabled; not sent", latencyMs: null }),
    ]);

    const conflict = { error: "Webhook endpoint is disabled", status: 409 };
    expect((await post(`${path}/test`, undefined, { token: owner.token })).body).toEqual(conflict);
    expect((await post(`${path}/deliveries/${log[0].id}/retry`, undefined, { token: owner.token })).body).toEqual(conflict);

    // Enabled again, it receives new events, and the dropped one on request.
    expect((await patch(path, { enabled: true }, { token: owner.token })).body).toMatchObject({ enabled: true, disabledReason: null });
    expect((await post(`${path}/deliveries/${log[0].id}/retry`, undefined, { token: owner.token })).status).toBe(202);
    await newCampaign(org, owner.token, { title: "After enabling" });
    await runWorker(org);
    expect(
      verifiedAt(endpoint.path, endpoint.secret)
        .map((p) => p.data.title)
        .sort(),
    ).toEqual(["After enabling", "Queued before disabling"]);
  });

  it("an endpoint failing for five days is disabled; re-enabling clears its failure state", async () => {
    const { owner, org } = await plainOrg();
    const endpoint = await addEndpoint(org, owner.token);
    const young = await addEndpoint(org, owner.token);
    receiver.status.set(endpoint.path, 503);
    receiver.status.set(young.path, 503);
    await db
      .update(webhookEndpoints)
      .set({ failingSince: sql`now() - interval '5 days 1 minute'` })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await db
      .update(webhookEndpoints)
      .set({ failingSince: sql`now() - interval '4 days'` })
      .where(eq(webhookEndpoints.id, young.id));
    await newCampaign(org, owner.token);
    await runWorker(org);

    const path = `${endpointsPath(org)}/${endpoint.id}`;
    const shown = await get(path, { token: owner.token });
    expect(shown.body).toMatchObject({ enabled: false, disabledReason: DISABLED_REASON, failingSince: expect.any(String) });
    expect((await get(`${endpointsPath(org)}/${young.id}`, { token: owner.token })).body).toMatchObject({
      enabled: true,
      disabledReason: null,
    });

    // Its pending retry is dropped when it comes due; new events are not queued for it.
    await makeDue(org.id);
    await runWorker(org);
    expect(receivedAt(endpoint.path)).toHaveLength(1);
    const mine = (await webhookRows(org.id)).filter((r) => r.payload.endpointId === endpoint.id);
    expect(mine).toEqual([expect.objectContaining({ status: "SENT", lastError: "endpoint disabled; not sent" })]);

    const again = await patch(path, { enabled: true }, { token: owner.token });
    expect(again.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it("PATCH rotateSecret answers a new secret once; deliveries are signed with it", async () => {
    const { owner, org } = await plainOrg();
    const endpoint = await addEndpoint(org, owner.token);
    const path = `${endpointsPath(org)}/${endpoint.id}`;
    const rotated = await patch(path, { rotateSecret: true }, { token: owner.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect((await get(path, { token: owner.token })).body).not.toHaveProperty("secret");
    await newCampaign(org, owner.token);
    await runWorker(org);
    expect(verifiedAt(endpoint.path, rotated.body.secret)).toHaveLength(1);
    expect(() => verifiedAt(endpoint.path, endpoint.secret)).toThrow();
  });
});

describe("SSRF protection", () => {
  it("POST /api/orgs/:idOrSlug/webhook-endpoints refuses private, loopback and link-local targets without ALLOW_PRIVATE_WEBHOOK_URLS", async () => {
    setAllowPrivate(false);
    const { owner, org } = await plainOrg();
    const create = (url: string) => post(endpointsPath(org), { url }, { token: owner.token });
    for (const url of [
      "http://127.0.0.1/hooks",
      "http://10.0.0.1/hooks",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hooks",
      "http://localhost/hooks",
    ]) {
      expectValidation(await create(url), "url");
    }
    const PRIVATE = "Must resolve to a public internet address";
    for (const url of [
      "https://127.0.0.1/hooks",
      "https://10.0.0.1/hooks",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hooks",
      "https://localhost/hooks",
      "https://[::ffff:127.0.0.1]/hooks",
      "https://2130706433/hooks",
      "https://192.168.1.10:8443/hooks",
      "https://[fd00::1]/hooks",
      "https://100.64.0.1/hooks",
      "https://192.0.2.1/hooks",
      "https://198.18.0.1/hooks",
      "https://[2001:db8::1]/hooks",
      "https://[64:ff9b::a00:1]/hooks",
    ]) {
      expectValidation(await create(url), "url", PRIVATE);
    }
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.orgId, org.id))).toEqual([]);

    // The same check guards a change of URL.
    const ok = await create("https://93.184.215.14/hooks");
    expect(ok.status).toBe(201);
    expectValidation(
      await patch(`${endpointsPath(org)}/${ok.body.id}`, { url: "https://169.254.169.254/" }, { token: owner.token }),
      "url",
      PRIVATE,
    );
  });

  it("a delivery is refused at send time when the host now resolves to a private address", async () => {
    setAllowPrivate(false);
    const { owner, org } = await plainOrg();
    let answer = "93.184.215.14";
    const realLookup = dns.promises.lookup.bind(dns.promises);
    vi.spyOn(dns.promises, "lookup").mockImplementation(((host: string, options: never) =>
      host === "hooks.rebinding.test" ? Promise.resolve([{ address: answer, family: 4 }]) : realLookup(host, options)) as never);
    const created = await post(endpointsPath(org), { url: "https://hooks.rebinding.test/goodfund" }, { token: owner.token });
    expect(created.status, created.text).toBe(201);
    // Inserted directly, past the check at creation: a name that resolves to loopback.
    const local = hook();
    const localId = `we_test${uid()}`;
    await db.insert(webhookEndpoints).values({
      id: localId,
      orgId: org.id,
      url: local.url.replace("127.0.0.1", "localhost").replace("http:", "https:"),
      encryptedSecret: sealWebhookSecret(localId, newWebhookSecret()),
    });

    answer = "10.0.0.7";
    await newCampaign(org, owner.token);
    const before = receiver.received.length;
    await runWorker(org);
    expect(receiver.received.length).toBe(before);
    const log = await db
      .select()
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookEndpoints.orgId, org.id));
    const errors = log.map((r) => r.webhook_deliveries.error).sort();
    // The refusal never says which address the name resolved to.
    expect(errors).toEqual([
      "Refused: the URL must resolve to a public internet address",
      "Refused: the URL must resolve to a public internet address",
    ]);
    expect(log.every((r) => r.webhook_deliveries.statusCode === null && r.webhook_deliveries.latencyMs === null)).toBe(true);
    const rows = await webhookRows(org.id);
    expect(rows.map((r) => r.status)).toEqual(["PENDING", "PENDING"]);
    expect(rows.every((r) => r.lastError?.startsWith("Refused:"))).toBe(true);
    // Refusals are failures like any other: they count towards disabling the endpoint.
    expect((await endpointRow(created.body.id)).failingSince).toBeInstanceOf(Date);
  });
});
