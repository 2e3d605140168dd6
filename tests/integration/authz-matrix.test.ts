import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/app/api/api-routes";
import { donorRequests, donors, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/db/schema";
import { newId } from "@/lib/ids";
import { routeDefinitions } from "@/lib/api/openapi";
import { newWebhookSecret, sealWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";
import { addMember, call, get, newCampaign, newOrg, newUser, type TestUser } from "../helpers/api";
import { testDns } from "../helpers/custom-domains";
import { testDb } from "../helpers/db";

type Role = "MEMBER" | "ADMIN" | "OWNER";
type Ids = {
  org: string;
  campaign: string;
  target: string;
  webhook: string;
  delivery: string;
  apiKey: string;
  /** A donor of the organization, and a PENDING erasure request of theirs. */
  donor: string;
  donorRequest: string;
};

/**
 * Every organization-scoped endpoint with the role it needs. `path` builds the URL from the IDs
 * (so the same row is called with unknown ones for the 404 checks); `body` is a valid body that
 * succeeds for the minimum role; `status` what that success answers. A new endpoint is one row.
 */
type Row = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  route: string;
  role: Role;
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  status: number;
  /** The 404 when the path's resource does not exist. */
  notFound: "Organization not found" | "Campaign not found";
  /** Only a person may call it: an API key answers 403 whatever its role. */
  person?: true;
  /** A CSV body (`Content-Type: text/csv`) sent instead of JSON. */
  csv?: string;
};

const ORG_404 = "Organization not found";
const CAMPAIGN_404 = "Campaign not found";
const freshEmail = () => `invitee-${randomBytes(6).toString("hex")}@example.org`;

const MATRIX: Row[] = [
  { method: "GET", route: "/api/orgs/:idOrSlug", role: "MEMBER", path: (i) => `/api/orgs/${i.org}`, status: 200, notFound: ORG_404 },
  {
    method: "PATCH",
    route: "/api/orgs/:idOrSlug",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}`,
    body: () => ({ legalName: "Renamed Inc." }),
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/custom-domain/verify",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/custom-domain/verify`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/members",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/members`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/members",
    role: "OWNER",
    path: (i) => `/api/orgs/${i.org}/members`,
    body: () => ({ email: freshEmail(), role: "MEMBER" }),
    status: 201,
    notFound: ORG_404,
    person: true,
  },
  {
    method: "PATCH",
    route: "/api/orgs/:idOrSlug/members/:userId",
    role: "OWNER",
    path: (i) => `/api/orgs/${i.org}/members/${i.target}`,
    body: () => ({ role: "ADMIN" }),
    status: 200,
    notFound: ORG_404,
    person: true,
  },
  {
    method: "DELETE",
    route: "/api/orgs/:idOrSlug/members/:userId",
    role: "OWNER",
    path: (i) => `/api/orgs/${i.org}/members/${i.target}`,
    status: 204,
    notFound: ORG_404,
    person: true,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/processor/onboarding",
    role: "OWNER",
    path: (i) => `/api/orgs/${i.org}/processor/onboarding`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/campaigns",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/campaigns`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/campaigns",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/campaigns`,
    body: () => ({ title: "Matrix campaign" }),
    status: 201,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/audit-log",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/audit-log`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/statements",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/statements`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/statements",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/statements`,
    body: () => ({ year: 2025 }),
    status: 202,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/donations",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/donations`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/donations/export",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/donations/export`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/processor/subscriptions/adopt",
    role: "OWNER",
    path: (i) => `/api/orgs/${i.org}/processor/subscriptions/adopt`,
    body: (ids) => ({ campaignId: ids.campaign }),
    // The fixture's organization has no payout account yet: the OWNER is let through and told to connect one.
    status: 409,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/imports",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/imports`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/imports",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/imports?preset=goodfund`,
    csv: "email,amount,date\nada@example.org,25.00,2024-01-05\n",
    status: 201,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/offline-gifts",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/offline-gifts`,
    body: (ids) => ({
      campaignId: ids.campaign,
      amount: 5000,
      receivedAt: "2024-05-01",
      method: "CHEQUE",
      donor: { email: freshEmail(), firstName: "Ada", lastName: "Lovelace" },
    }),
    status: 201,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/gift-aid/claim",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/gift-aid/claim?from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/donors",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/donors`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/donors/export",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/donors/export`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/donors/:id/export",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/donors/${i.donor}/export`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/donors/:id/erase",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/donors/${i.donor}/erase`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/donor-requests",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/donor-requests`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/donor-requests/:id/approve",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/donor-requests/${i.donorRequest}/approve`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/donor-requests/:id/reject",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/donor-requests/${i.donorRequest}/reject`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/recurring-plans",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/recurring-plans`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/reports/summary",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/reports/summary`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/reports/recurring",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/reports/recurring`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/reports/timeseries",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/reports/timeseries`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/reports/campaigns",
    role: "MEMBER",
    path: (i) => `/api/orgs/${i.org}/reports/campaigns`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/campaigns/:id",
    role: "MEMBER",
    path: (i) => `/api/campaigns/${i.campaign}`,
    status: 200,
    notFound: CAMPAIGN_404,
  },
  {
    method: "PATCH",
    route: "/api/campaigns/:id",
    role: "ADMIN",
    path: (i) => `/api/campaigns/${i.campaign}`,
    body: () => ({ title: "Retitled" }),
    status: 200,
    notFound: CAMPAIGN_404,
  },
  {
    method: "GET",
    route: "/api/campaigns/:id/fundraisers",
    role: "MEMBER",
    path: (i) => `/api/campaigns/${i.campaign}/fundraisers`,
    status: 200,
    notFound: CAMPAIGN_404,
  },
  {
    method: "GET",
    route: "/api/campaigns/:id/fundraisers/export",
    role: "MEMBER",
    path: (i) => `/api/campaigns/${i.campaign}/fundraisers/export`,
    status: 200,
    notFound: CAMPAIGN_404,
  },
  {
    method: "GET",
    route: "/api/campaigns/:id/tickets",
    role: "MEMBER",
    path: (i) => `/api/campaigns/${i.campaign}/tickets`,
    status: 200,
    notFound: CAMPAIGN_404,
  },
  {
    method: "GET",
    route: "/api/campaigns/:id/tickets/export",
    role: "MEMBER",
    path: (i) => `/api/campaigns/${i.campaign}/tickets/export`,
    status: 200,
    notFound: CAMPAIGN_404,
  },
  // The fixture's campaign sold no tickets: the role passes, the code is unknown (404 Ticket not found).
  {
    method: "POST",
    route: "/api/campaigns/:id/check-ins",
    role: "MEMBER",
    path: (i) => `/api/campaigns/${i.campaign}/check-ins`,
    body: () => ({ code: "ABCDEFGHIJKLMNOPQRSTUVWX" }),
    status: 404,
    notFound: CAMPAIGN_404,
  },
  {
    method: "POST",
    route: "/api/campaigns/:id/fundraisers/email",
    role: "ADMIN",
    path: (i) => `/api/campaigns/${i.campaign}/fundraisers/email`,
    body: () => ({ subject: "Race day", body: "See you there" }),
    status: 202,
    notFound: CAMPAIGN_404,
  },
  // The fixture's campaign is staff's own, not a supporter's page: the role passes, the action is refused (409).
  {
    method: "POST",
    route: "/api/campaigns/:id/approve",
    role: "ADMIN",
    path: (i) => `/api/campaigns/${i.campaign}/approve`,
    status: 409,
    notFound: CAMPAIGN_404,
  },
  {
    method: "POST",
    route: "/api/campaigns/:id/hide",
    role: "ADMIN",
    path: (i) => `/api/campaigns/${i.campaign}/hide`,
    status: 409,
    notFound: CAMPAIGN_404,
  },
  {
    method: "DELETE",
    route: "/api/campaigns/:id",
    role: "ADMIN",
    path: (i) => `/api/campaigns/${i.campaign}`,
    status: 204,
    notFound: CAMPAIGN_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/webhook-endpoints",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/webhook-endpoints`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/webhook-endpoints",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/webhook-endpoints`,
    // A public address literal (no DNS), subscribed to an event these tests never cause.
    body: () => ({ url: "https://93.184.215.14/goodfund-hooks", eventTypes: ["payout.failed"] }),
    status: 201,
    notFound: ORG_404,
  },
  ...(["GET", "PATCH", "DELETE"] as const).map((method): Row => ({
    method,
    route: "/api/orgs/:idOrSlug/webhook-endpoints/:id",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/webhook-endpoints/${i.webhook}`,
    body: method === "PATCH" ? () => ({ description: "Renamed" }) : undefined,
    status: method === "DELETE" ? 204 : 200,
    notFound: ORG_404,
  })),
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/webhook-endpoints/:id/deliveries",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/webhook-endpoints/${i.webhook}/deliveries`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/webhook-endpoints/:id/deliveries/:deliveryId/retry",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/webhook-endpoints/${i.webhook}/deliveries/${i.delivery}/retry`,
    status: 202,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/webhook-endpoints/:id/test",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/webhook-endpoints/${i.webhook}/test`,
    status: 202,
    notFound: ORG_404,
  },
  {
    method: "GET",
    route: "/api/orgs/:idOrSlug/api-keys",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/api-keys`,
    status: 200,
    notFound: ORG_404,
  },
  {
    method: "POST",
    route: "/api/orgs/:idOrSlug/api-keys",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/api-keys`,
    body: () => ({ name: "Matrix key", role: "MEMBER" }),
    status: 201,
    notFound: ORG_404,
    person: true,
  },
  {
    method: "DELETE",
    route: "/api/orgs/:idOrSlug/api-keys/:id",
    role: "ADMIN",
    path: (i) => `/api/orgs/${i.org}/api-keys/${i.apiKey}`,
    status: 204,
    notFound: ORG_404,
    person: true,
  },
];

const RANK: Record<Role, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };
const ROLES: Role[] = ["MEMBER", "ADMIN", "OWNER"];

type Fixture = {
  ids: Ids;
  slugIds: Ids;
  users: Record<Role, TestUser>;
  outsider: TestUser;
  /** API keys of the organization, by role, and an ADMIN key of the outsider's organization. */
  keys: Record<"ADMIN" | "MEMBER", string>;
  outsiderKey: string;
};

async function createKey(orgId: string, token: string, role: "ADMIN" | "MEMBER"): Promise<{ id: string; key: string }> {
  const res = await call("POST", `/api/orgs/${orgId}/api-keys`, { token, body: { name: `Matrix ${role}`, role } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/**
 * A fresh organization with one user per role, a non-member, a DRAFT campaign, a member to act
 * on, API keys, and a custom domain whose TXT record is published (so verifying it succeeds).
 */
async function fixture(): Promise<Fixture> {
  const { owner, org } = await newOrg(undefined, { customDomain: `authz-${randomBytes(5).toString("hex")}.example.org` });
  const record = org.customDomainVerification as { name: string; value: string };
  (await testDns()).setTxt(record.name, [record.value]);
  const signedIn = async () => {
    const u = await newUser();
    expect((await get("/api/orgs", { token: u.token })).status).toBe(200);
    return u;
  };
  const admin = await signedIn();
  const member = await signedIn();
  const target = await signedIn();
  const outsider = await signedIn();
  await addMember(org.id, owner.token, admin, "ADMIN");
  await addMember(org.id, owner.token, member, "MEMBER");
  await addMember(org.id, owner.token, target, "MEMBER");
  // The outsider belongs to an organization of their own, so they are a real user with memberships.
  const { org: outsiderOrg } = await newOrg(outsider);
  const campaign = await newCampaign(org, owner.token);
  const { webhook, delivery } = await webhookFixture(org.id);
  const keys = { ADMIN: (await createKey(org.id, owner.token, "ADMIN")).key, MEMBER: (await createKey(org.id, owner.token, "MEMBER")).key };
  const outsiderKey = (await createKey(outsiderOrg.id, outsider.token, "ADMIN")).key;
  const apiKey = (await createKey(org.id, owner.token, "MEMBER")).id;
  const { donor, donorRequest } = await donorFixture(org.id);
  const ids = { org: org.id, campaign: campaign.id, target: target.sub, webhook, delivery, apiKey, donor, donorRequest };
  return { ids, slugIds: { ...ids, org: org.slug }, users: { OWNER: owner, ADMIN: admin, MEMBER: member }, outsider, keys, outsiderKey };
}

/**
 * A webhook endpoint with one logged delivery, written directly: its `.invalid` host never
 * resolves, so a worker of another file sharing the database fails fast on what tests queue.
 */
async function webhookFixture(orgId: string) {
  const db = await testDb();
  const tag = randomBytes(6).toString("hex");
  const [webhook, event, delivery] = [`we_authz${tag}`, `evt_authz${tag}`, `whd_authz${tag}`];
  await db.insert(webhookEndpoints).values({
    id: webhook,
    orgId,
    url: "https://goodfund-authz.invalid/hooks",
    eventTypes: ["payout.paid"],
    encryptedSecret: sealWebhookSecret(webhook, newWebhookSecret()),
  });
  await db.insert(webhookEvents).values({ id: event, orgId, type: "payout.paid", payload: { id: event, type: "payout.paid", data: {} } });
  await db
    .insert(webhookDeliveries)
    .values({ id: delivery, endpointId: webhook, eventId: event, attempt: 1, statusCode: 500, latencyMs: 12 });
  return { webhook, delivery };
}

/** A donor (no gifts, so erasing them touches no processor) with a PENDING erasure request, written directly. */
async function donorFixture(orgId: string) {
  const db = await testDb();
  const donor = newId("dnr");
  const donorRequest = newId("dreq");
  await db.insert(donors).values({ id: donor, orgId, email: `authz-${donor}@example.org` });
  await db.insert(donorRequests).values({ id: donorRequest, orgId, donorId: donor, kind: "ERASURE" });
  return { donor, donorRequest };
}

const send = (row: Row, ids: Ids, token?: string, body = row.body?.(ids)) =>
  row.csv !== undefined
    ? call(row.method, row.path(ids), { token, rawBody: row.csv, headers: { "content-type": "text/csv" } })
    : call(row.method, row.path(ids), { token, body });

const ROUTE_FILES = import.meta.glob("/app/api/**/route.ts");

const UNKNOWN_ORG = "org_unknown00000000000000";
const UNKNOWN_CAMPAIGN = "cmp_unknown00000000000000";

describe("authorization matrix", () => {
  it("has a row for every method of every organization-scoped route file", async () => {
    // Org-scoped: under /api/orgs/:idOrSlug or /api/campaigns/:id. A method is implemented when
    // it answers something other than 405; every implemented one must have a row above.
    const scoped = Object.keys(ROUTE_FILES)
      .map((file) =>
        file
          .replace(/^\/app/, "")
          .replace(/\/route\.ts$/, "")
          .replace(/\[(\w+)\]/g, ":$1"),
      )
      .filter((route) => /^\/api\/(orgs\/:idOrSlug|campaigns\/:id)(\/|$)/.test(route));
    const implemented: string[] = [];
    for (const route of scoped) {
      const path = route.replace(/:\w+/g, "x-probe");
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        if ((await call(method, path)).status !== 405) implemented.push(`${method} ${route}`);
      }
    }
    const rows = MATRIX.map((r) => `${r.method} ${r.route}`);
    expect(
      implemented.filter((e) => !rows.includes(e)),
      "add a row to MATRIX for these",
    ).toEqual([]);
    expect(
      rows.filter((e) => !implemented.includes(e)),
      "rows for endpoints that do not exist",
    ).toEqual([]);
    expect(rows).toEqual(expect.arrayContaining(["GET /api/orgs/:idOrSlug", "DELETE /api/campaigns/:id"]));
  });

  it("agrees with the role (and person-only mark) each organization-scoped route declares", () => {
    // What the route files declare (withRoute's `role`, MEMBER by default, and `person`), through the route manifest.
    const declared = routeDefinitions(API_ROUTES)
      .map(({ path, method, definition }) => ({ method, route: path.replace(/\[(\w+)\]/g, ":$1"), ...definition }))
      .filter(({ route }) => /^\/api\/(orgs\/:idOrSlug|campaigns\/:id)(\/|$)/.test(route))
      .map(({ method, route, access, person }) => `${method} ${route}: ${access}${person ? " person" : ""}`)
      .sort();
    expect(declared).toEqual(MATRIX.map((r) => `${r.method} ${r.route}: ${r.role}${r.person ? " person" : ""}`).sort());
  });

  describe.each(MATRIX.map((row) => [`${row.method} ${row.route}`, row] as const))("%s", (_name, row) => {
    it(`${row.method} ${row.route} without a token answers 401`, async () => {
      const f = await fixture();
      const res = await send(row, f.ids);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    });

    it(`${row.method} ${row.route} without a token on an unknown resource answers 401, not 404`, async () => {
      const res = await send(row, {
        org: UNKNOWN_ORG,
        campaign: UNKNOWN_CAMPAIGN,
        target: "usr_unknown",
        webhook: "we_unknown",
        delivery: "whd_unknown",
        apiKey: "key_unknown",
        donor: "dnr_unknown",
        donorRequest: "dreq_unknown",
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    });

    it(`${row.method} ${row.route} by a non-member answers 403`, async () => {
      const f = await fixture();
      for (const ids of [f.ids, f.slugIds]) {
        const res = await send(row, ids, f.outsider.token);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "Forbidden", status: 403 });
      }
    });

    if (row.body) {
      it(`${row.method} ${row.route} by a non-member with an invalid body answers 403, not 400`, async () => {
        const f = await fixture();
        const res = await send(row, f.ids, f.outsider.token, { title: "", role: "KING", email: "nope", name: 42, slug: "!" });
        expect(res.status).toBe(403);
      });
    }

    const below = ROLES.filter((r) => RANK[r] < RANK[row.role]);
    if (below.length > 0) {
      it.each(below)(`${row.method} ${row.route} by a %s (needs ${row.role}) answers 403`, async (role) => {
        const f = await fixture();
        const res = await send(row, f.ids, f.users[role].token);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "Forbidden", status: 403 });
      });
    }

    it(`${row.method} ${row.route} with an API key of another organization answers 403`, async () => {
      const f = await fixture();
      const res = await send(row, f.ids, f.outsiderKey);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    });

    if (row.person || row.role === "OWNER") {
      it(`${row.method} ${row.route} with an ADMIN API key of the organization answers 403 (${row.person ? "a person only" : "keys are never OWNER"})`, async () => {
        const f = await fixture();
        const res = await send(row, f.ids, f.keys.ADMIN);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "Forbidden", status: 403 });
      });
    } else {
      it(`${row.method} ${row.route} with a ${row.role} API key of the organization succeeds with ${row.status}`, async () => {
        const f = await fixture();
        const res = await send(row, f.ids, f.keys[row.role as "ADMIN" | "MEMBER"]);
        expect(res.status, res.text).toBe(row.status);
      });
      if (row.role === "ADMIN") {
        it(`${row.method} ${row.route} with a MEMBER API key (needs ADMIN) answers 403`, async () => {
          const f = await fixture();
          const res = await send(row, f.ids, f.keys.MEMBER);
          expect(res.status).toBe(403);
        });
      }
    }

    it(`${row.method} ${row.route} with a valid token and an unknown ${row.notFound === ORG_404 ? "organization" : "campaign"} answers 404`, async () => {
      const f = await fixture();
      const unknown = { ...f.ids, org: UNKNOWN_ORG, campaign: UNKNOWN_CAMPAIGN };
      for (const token of [f.outsider.token, f.users.OWNER.token]) {
        const res = await send(row, unknown, token);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: row.notFound, status: 404 });
      }
      if (row.notFound === ORG_404) {
        const bySlug = await send(row, { ...f.ids, org: `no-such-org-${randomBytes(4).toString("hex")}` }, f.outsider.token);
        expect(bySlug.status).toBe(404);
        expect(bySlug.body).toEqual({ error: ORG_404, status: 404 });
      }
    });

    it.each(ROLES.filter((r) => RANK[r] >= RANK[row.role]))(
      `${row.method} ${row.route} by a %s (needs ${row.role}) succeeds with ${row.status}`,
      async (role) => {
        const f = await fixture();
        const res = await send(row, f.ids, f.users[role].token);
        expect(res.status, res.text).toBe(row.status);
      },
    );
  });
});

describe("DELETE /api/orgs/:idOrSlug/members/:userId on oneself", () => {
  it.each(["MEMBER", "ADMIN"] as const)("DELETE /api/orgs/:idOrSlug/members/:userId lets a %s remove themselves", async (role) => {
    const f = await fixture();
    const me = f.users[role];
    const res = await call("DELETE", `/api/orgs/${f.ids.org}/members/${me.sub}`, { token: me.token });
    expect(res.status).toBe(204);
    expect((await get(`/api/orgs/${f.ids.org}`, { token: me.token })).status).toBe(403);
  });
});
