/**
 * Property tests over the write endpoints and the path/query parsing of the read endpoints:
 * whatever a client sends, the API answers below 500, and every error is exactly the API's
 * shape `{ error, status, details? }`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addMember, call, get, newCampaign, newOrg, newUser, type TestUser } from "../helpers/api";
import { nasty, wrongType } from "../helpers/arbitraries";
import { assertContractResponse } from "../helpers/contract";

// FUZZ_RUNS raises the runs for a deeper search (raise RATE_LIMIT_AUTHENTICATED_PER_MINUTE with it).
const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const TIMEOUT = 120_000;

// ---------------------------------------------------------------------------------------------
// Arbitraries.

/** Anything of the wrong type for most fields. */
const wrong = wrongType(fc.string({ maxLength: 20 }));

const text = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ minLength: 100, maxLength: 400 }),
  nasty,
);
const slug = fc.oneof(fc.stringMatching(/^[a-z0-9]{1,20}(-[a-z0-9]{1,10}){0,3}$/), text);
const emailAddr = fc.oneof(fc.emailAddress(), fc.stringMatching(/^[a-z0-9][a-z0-9.+_-]{0,15}[a-z0-9]@[a-z0-9]{1,10}\.(org|com|io)$/), text);
const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom("javascript:alert(1)", "ftp://example.org/x", "http://example.org/\u0000", "https://[::1]/", "http://"),
  text,
);
const color = fc.oneof(fc.stringMatching(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/), text);

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
/** ISO 8601 date-times across the whole 4-digit-year range, in UTC or with an offset. */
const isoDate = fc.oneof(
  fc
    .date({ min: new Date("0000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc
    .record({
      y: fc.integer({ min: 0, max: 9999 }),
      mo: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 28 }),
      h: fc.integer({ min: 0, max: 23 }),
      mi: fc.integer({ min: 0, max: 59 }),
      oh: fc.integer({ min: -23, max: 23 }),
      om: fc.constantFrom(0, 30, 45),
    })
    .map(
      ({ y, mo, d, h, mi, oh, om }) =>
        `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:00${oh < 0 ? "-" : "+"}${pad(Math.abs(oh))}:${pad(om)}`,
    ),
  fc.constantFrom("0000-01-01T00:00:00Z", "9999-12-31T23:59:59-23:59", "2030-01-01T00:00:00Z", "2030-01-01", "tomorrow"),
  text,
);
const int = fc.oneof(
  fc.integer(),
  fc.integer({ min: -5, max: 5000 }),
  fc.constantFrom(0, 99, 100, 1000, 1001, 2_000_000_000, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER, -0, 1e21),
  fc.double(),
);
const bool = fc.boolean();
const oneOf = (...values: string[]) => fc.oneof(fc.constantFrom(...values), text);

/** An object built from real field names, each absent or holding a right- or wrong-typed value. */
function fields(spec: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const value = (right: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: right }, { weight: 1, arbitrary: wrong });
  const all = fc.record(Object.fromEntries(Object.entries(spec).map(([k, right]) => [k, value(right)])), { requiredKeys: [] });
  // Bodies of a few fields get past validation more often, so the services and database are fuzzed too.
  const few = fc
    .subarray(Object.keys(spec), { minLength: 1, maxLength: Math.min(3, Object.keys(spec).length) })
    .chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, value(spec[k])]))));
  return fc.oneof(all, few, few);
}

const ORG_FIELDS = {
  name: text,
  slug,
  notificationEmail: fc.oneof(emailAddr, fc.constant(null)),
  legalName: fc.oneof(text, fc.constant(null)),
  taxId: fc.oneof(text, fc.constant(null)),
  logoUrl: fc.oneof(url, fc.constant(null)),
  color: fc.oneof(color, fc.constant(null)),
  customDomain: fc.oneof(fc.domain(), text, fc.constant(null)),
  currency: oneOf("usd", "EUR", "gbp", "us"),
};

const CAMPAIGN_FIELDS = {
  title: text,
  slug,
  description: fc.oneof(text, fc.constant(null)),
  type: oneOf("DONATION", "PEER_TO_PEER", "EVENT", "MEMBERSHIP"),
  status: oneOf("DRAFT", "ACTIVE", "PAUSED", "ENDED"),
  goalAmountCents: fc.oneof(int, fc.constant(null)),
  coverImageUrl: fc.oneof(url, fc.constant(null)),
  videoUrl: fc.oneof(url, fc.constant(null)),
  color: fc.oneof(color, fc.constant(null)),
  showDonorRoll: bool,
  showGoal: bool,
  startDate: fc.oneof(isoDate, fc.constant(null)),
  endDate: fc.oneof(isoDate, fc.constant(null)),
  suggestedAmounts: fc.array(int, { maxLength: 14 }),
  allowCustomAmount: bool,
  allowRecurring: bool,
  matchingEnabled: bool,
  matchingOrgName: fc.oneof(text, fc.constant(null)),
  matchingMaxCents: fc.oneof(int, fc.constant(null)),
  matchingRatioPct: int,
  minAmountCents: fc.oneof(int, fc.constant(null)),
  ticketPriceCents: fc.oneof(int, fc.constant(null)),
  ticketCapacity: fc.oneof(int, fc.constant(null)),
  parentCampaignId: fc.oneof(text, fc.constant(null)),
  scheduledPublishAt: fc.oneof(isoDate, fc.constant(null)),
};

const MEMBER_FIELDS = { email: emailAddr, role: oneOf("OWNER", "ADMIN", "MEMBER") };

/** A body as sent on the wire: JSON of a value, or a raw string/bytes declared as JSON. */
type Wire = { kind: "json"; value: unknown } | { kind: "raw"; raw: string | Uint8Array };

const unstructured: fc.Arbitrary<Wire> = fc.oneof(
  fc.anything({ maxDepth: 3 }).map((value) => ({ kind: "json" as const, value })),
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: "json" as const, value })),
  fc.string({ unit: "binary", maxLength: 200 }).map((raw) => ({ kind: "raw" as const, raw })),
  fc.string({ maxLength: 200 }).map((raw) => ({ kind: "raw" as const, raw: `{${raw}` })),
  fc.uint8Array({ maxLength: 200 }).map((raw) => ({ kind: "raw" as const, raw })),
);

async function send(method: string, path: string, token: string, wire: Wire) {
  const raw = wire.kind === "raw" ? wire.raw : (JSON.stringify(wire.value) ?? "");
  return call(method, path, { token, rawBody: raw, headers: { "content-type": "application/json" } });
}

// ---------------------------------------------------------------------------------------------
// Write endpoints. Each property gets its own user (the authenticated limit is 600/min per user).

type Endpoint = {
  name: string;
  method: "POST" | "PATCH";
  fields: Record<string, fc.Arbitrary<unknown>>;
  /** Fresh state for one property: the path to hit and the token to hit it with. */
  setup: () => Promise<{ path: string; token: string }>;
  /** A body the endpoint accepts, tried first, so every run also reaches the service at least once. */
  valid?: Record<string, unknown>;
};

async function orgWithOwner(): Promise<{ owner: TestUser; org: { id: string; slug: string } }> {
  return newOrg();
}

const WRITE_ENDPOINTS: Endpoint[] = [
  {
    name: "POST /api/orgs",
    method: "POST",
    fields: ORG_FIELDS,
    valid: { name: "Fuzzed fund" },
    setup: async () => ({ path: "/api/orgs", token: (await newUser()).token }),
  },
  {
    name: "PATCH /api/orgs/:idOrSlug",
    method: "PATCH",
    fields: ORG_FIELDS,
    setup: async () => {
      const { owner, org } = await orgWithOwner();
      return { path: `/api/orgs/${org.id}`, token: owner.token };
    },
  },
  {
    name: "POST /api/orgs/:idOrSlug/members",
    method: "POST",
    fields: MEMBER_FIELDS,
    valid: { email: "fuzz-valid-member@example.org", role: "MEMBER" },
    setup: async () => {
      const { owner, org } = await orgWithOwner();
      return { path: `/api/orgs/${org.id}/members`, token: owner.token };
    },
  },
  {
    name: "PATCH /api/orgs/:idOrSlug/members/:userId",
    method: "PATCH",
    fields: MEMBER_FIELDS,
    setup: async () => {
      const { owner, org } = await orgWithOwner();
      const target = await newUser();
      expect((await get("/api/orgs", { token: target.token })).status).toBe(200);
      await addMember(org.id, owner.token, target, "MEMBER");
      return { path: `/api/orgs/${org.id}/members/${target.sub}`, token: owner.token };
    },
  },
  {
    name: "POST /api/orgs/:idOrSlug/campaigns",
    method: "POST",
    fields: CAMPAIGN_FIELDS,
    valid: { title: "Fuzzed campaign" },
    setup: async () => {
      const { owner, org } = await orgWithOwner();
      return { path: `/api/orgs/${org.id}/campaigns`, token: owner.token };
    },
  },
  {
    name: "PATCH /api/campaigns/:id",
    method: "PATCH",
    fields: CAMPAIGN_FIELDS,
    setup: async () => {
      const { owner, org } = await orgWithOwner();
      await newCampaign(org, owner.token, { title: "P2P parent", type: "PEER_TO_PEER" });
      const c = await newCampaign(org, owner.token, { title: "Fuzzed" });
      return { path: `/api/campaigns/${c.id}`, token: owner.token };
    },
  },
];

describe.each(WRITE_ENDPOINTS.map((e) => [e.name, e] as const))("%s (fuzz)", (name, endpoint) => {
  it(
    `${name} never answers 5xx to objects of its real fields with random values, and errors have the API's shape`,
    async () => {
      const { path, token } = await endpoint.setup();
      let succeeded = 0;
      await fc.assert(
        fc.asyncProperty(fields(endpoint.fields), async (body) => {
          const res = await send(endpoint.method, path, token, { kind: "json", value: body });
          assertContractResponse(res, body);
          if (res.status < 300) succeeded++;
        }),
        { numRuns: NUM_RUNS, examples: endpoint.valid ? [[endpoint.valid]] : [] },
      );
      // Bodies get through validation to the service (the known-valid example at least).
      expect(succeeded).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    `${name} never answers 5xx to arbitrary JSON values, raw strings and raw bytes`,
    async () => {
      const { path, token } = await endpoint.setup();
      await fc.assert(
        fc.asyncProperty(unstructured, async (wire) => {
          const res = await send(endpoint.method, path, token, wire);
          assertContractResponse(res, wire);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// Path parameters and query strings of the read endpoints.

/** One path segment as a client would put it on the wire. */
const segment: fc.Arbitrary<string> = fc.oneof(
  fc
    .string({ unit: "grapheme", minLength: 1, maxLength: 40 })
    .filter((s) => s !== "." && s !== "..")
    .map(encodeURIComponent),
  fc
    .string({ unit: "grapheme-ascii", minLength: 1, maxLength: 120 })
    .filter((s) => s !== "." && s !== "..")
    .map(encodeURIComponent),
  fc.constantFrom(
    "%00",
    "a%00b",
    "org_%00",
    "%20",
    "%C3%A9",
    "%F0%9F%98%80",
    "%25",
    "%2F",
    "%5C",
    "null",
    "undefined",
    "0",
    "-1",
    "org_" + "x".repeat(100),
    "x".repeat(300),
    "'%20OR%201%3D1",
    "%E2%80%AE",
  ),
);

const queryString: fc.Arbitrary<string> = fc.oneof(
  fc
    .dictionary(
      fc.oneof(fc.constantFrom("page", "limit", "status", "type"), fc.string({ maxLength: 8 })),
      fc.oneof(
        fc.string({ unit: "grapheme", maxLength: 20 }),
        fc.integer().map(String),
        fc.double().map(String),
        fc.constantFrom("0", "1", "100", "101", "-1", "1e3", "0x10", "Infinity", "NaN", "", " 1", "DRAFT", "EVENT", "\u0000"),
      ),
      { maxKeys: 5 },
    )
    .map((d) => `?${new URLSearchParams(d)}`),
  fc.string({ unit: "grapheme-ascii", maxLength: 60 }).map((s) => `?${s.replace(/#/g, "")}`),
  fc.constantFrom("?page=%00", "?limit=%FF", "?status=%E2%80%AE", "?page=1&page=2", "?limit=1&limit=1000", "?%00=%00"),
);

type ReadEndpoint = { name: string; path: (seg: string, seg2: string) => string; query?: boolean; auth: boolean };

const READ_ENDPOINTS: ReadEndpoint[] = [
  { name: "GET /api/orgs/:idOrSlug", path: (s) => `/api/orgs/${s}`, auth: true },
  { name: "GET /api/orgs/:idOrSlug/members", path: (s) => `/api/orgs/${s}/members`, auth: true },
  { name: "GET /api/orgs/:idOrSlug/campaigns", path: (s) => `/api/orgs/${s}/campaigns`, query: true, auth: true },
  { name: "GET /api/campaigns/:id", path: (s) => `/api/campaigns/${s}`, auth: true },
  { name: "GET /api/public/campaigns/:id", path: (s) => `/api/public/campaigns/${s}`, auth: false },
  { name: "GET /api/public/orgs/:orgSlug/campaigns/:slug", path: (s, t) => `/api/public/orgs/${s}/campaigns/${t}`, auth: false },
];

describe.each(READ_ENDPOINTS.map((e) => [e.name, e] as const))("%s (fuzz)", (name, endpoint) => {
  it(
    `${name} never answers 5xx to random path parameters${endpoint.query ? " and query strings" : ""}`,
    async () => {
      const user = await newUser();
      const { owner, org } = await newOrg(user);
      const known = await newCampaign(org, owner.token);
      // Mix in real IDs so some requests get past the lookup (and, for the list, into the query parser).
      const seg = fc.oneof(
        { weight: 3, arbitrary: segment },
        { weight: 1, arbitrary: fc.constantFrom(org.id, org.slug, known.id, known.slug) },
      );
      const qs = endpoint.query ? queryString : fc.constant("");
      await fc.assert(
        fc.asyncProperty(seg, seg, qs, async (a, b, q) => {
          const path = endpoint.path(a, b) + q;
          const res = await call("GET", path, endpoint.auth ? { token: user.token } : {});
          assertContractResponse(res, path);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT,
  );
});

describe("GET /api/orgs/:idOrSlug/campaigns (fuzz)", () => {
  it(
    "GET /api/orgs/:idOrSlug/campaigns with valid paging params always answers a consistent page",
    async () => {
      const { owner, org } = await newOrg();
      for (let i = 0; i < 7; i++) await newCampaign(org, owner.token, { title: `C${i}` });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 100 }), async (page, limit) => {
          const res = await get(`/api/orgs/${org.id}/campaigns?page=${page}&limit=${limit}`, { token: owner.token });
          expect(res.status).toBe(200);
          const expectedLength = Math.max(0, Math.min(limit, 7 - (page - 1) * limit));
          expect(res.body.data).toHaveLength(expectedLength);
          expect(res.body.pagination).toEqual({ page, limit, total: 7, hasMore: page * limit < 7 });
        }),
        { numRuns: 60 },
      );
    },
    TIMEOUT,
  );
});
