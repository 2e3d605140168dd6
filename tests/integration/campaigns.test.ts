import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { campaigns, donations, donors } from "@/db/schema";
import { addMember, del, get, newCampaign, newOrg, newUser, patch, post, type TestUser } from "../helpers/api";
import { expectNewRecord } from "../helpers/contract";
import { testDb } from "../helpers/db";

type Org = { id: string; slug: string } & Record<string, any>;

const NULLABLE_CAMPAIGN_FIELDS = [
  "description",
  "goalAmountCents",
  "coverImageUrl",
  "videoUrl",
  "color",
  "startDate",
  "endDate",
  "matchingOrgName",
  "matchingMaxCents",
  "minAmountCents",
  "ticketPriceCents",
  "ticketCapacity",
  "parentCampaignId",
  "scheduledPublishAt",
] as const;

let owner: TestUser;
let org: Org;

beforeAll(async () => {
  ({ owner, org } = await newOrg());
});

const create = (body: Record<string, unknown>, o: Org = org, token = owner.token) => post(`/api/orgs/${o.id}/campaigns`, body, { token });
const update = (id: string, body: Record<string, unknown>) => patch(`/api/campaigns/${id}`, body, { token: owner.token });

function expectValidation(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toBe("Validation failed");
  expect(res.body.status).toBe(400);
  expect(res.body.details.formErrors).toEqual(expect.any(Array));
  expect(res.body.details.fieldErrors[field], JSON.stringify(res.body.details)).toEqual(expect.arrayContaining([expect.any(String)]));
}

/** A campaign in `status`, reached through the allowed transitions. */
async function campaignIn(status: "DRAFT" | "ACTIVE" | "PAUSED" | "ENDED") {
  const c = await newCampaign(org, owner.token);
  const path: Record<string, string[]> = { DRAFT: [], ACTIVE: ["ACTIVE"], PAUSED: ["ACTIVE", "PAUSED"], ENDED: ["ACTIVE", "ENDED"] };
  for (const s of path[status]) expect((await update(c.id, { status: s })).status).toBe(200);
  return c;
}

describe("POST /api/orgs/:idOrSlug/campaigns", () => {
  it("POST /api/orgs/:idOrSlug/campaigns creates a campaign (201) with the documented defaults", async () => {
    const res = await create({ title: "Defaults", slug: "defaults" });
    expect(res.status).toBe(201);
    const c = res.body;
    expect(c).toMatchObject({
      orgId: org.id,
      title: "Defaults",
      slug: "defaults",
      status: "DRAFT",
      type: "DONATION",
      raisedAmountCents: 0,
      donationCount: 0,
      ticketsSold: 0,
      showDonorRoll: true,
      showGoal: true,
      suggestedAmounts: [2500, 5000, 10000],
      allowCustomAmount: true,
      allowRecurring: true,
      matchingEnabled: false,
      matchingRatioPct: 100,
    });
    expectNewRecord(c, NULLABLE_CAMPAIGN_FIELDS);
  });

  it("POST /api/orgs/:idOrSlug/campaigns accepts the org slug in the path and stores every field given", async () => {
    const body = {
      title: "Everything",
      description: "All the fields",
      type: "DONATION",
      status: "ACTIVE",
      goalAmountCents: 1_000_000,
      coverImageUrl: "https://example.org/cover.jpg",
      videoUrl: "http://example.org/video",
      color: "#abc",
      showDonorRoll: false,
      showGoal: false,
      startDate: "2030-01-01T00:00:00.000Z",
      endDate: "2030-02-01T00:00:00+01:00",
      suggestedAmounts: [100, 999],
      allowCustomAmount: false,
      allowRecurring: false,
      matchingEnabled: true,
      matchingOrgName: "Big Co",
      matchingMaxCents: 50_000,
      matchingRatioPct: 200,
      minAmountCents: 500,
      scheduledPublishAt: "2029-12-31T12:00:00Z",
    };
    const res = await post(`/api/orgs/${org.slug}/campaigns`, body, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ...body,
      endDate: "2030-01-31T23:00:00.000Z",
      scheduledPublishAt: "2029-12-31T12:00:00.000Z",
    });
  });

  it("POST /api/orgs/:idOrSlug/campaigns generates the slug from the title and de-duplicates it", async () => {
    const { owner: o, org: fresh } = await newOrg();
    const slugs = [];
    for (let i = 0; i < 3; i++) {
      const res = await create({ title: "Spring Appeal!" }, fresh, o.token);
      expect(res.status).toBe(201);
      slugs.push(res.body.slug);
    }
    expect(slugs).toEqual(["spring-appeal", "spring-appeal-2", "spring-appeal-3"]);
  });

  it("POST /api/orgs/:idOrSlug/campaigns keeps generated slugs within 80 characters and valid for any title", async () => {
    const { owner: o, org: fresh } = await newOrg();
    const long = "Save the whales and the dolphins ".repeat(5).slice(0, 140);
    const first = await create({ title: long }, fresh, o.token);
    const second = await create({ title: long }, fresh, o.token);
    expect(first.body.slug.length).toBeLessThanOrEqual(80);
    expect(second.body.slug.length).toBeLessThanOrEqual(80);
    expect(second.body.slug).toMatch(/-2$/);
    expect(second.body.slug).not.toBe(first.body.slug);
    const accented = await create({ title: "Café für alle" }, fresh, o.token);
    expect(accented.body.slug).toBe("cafe-fur-alle");
    for (const title of ["日本語のキャンペーン", "!!!", "😀"]) {
      const res = await create({ title }, fresh, o.token);
      expect(res.status, title).toBe(201);
      expect(res.body.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });

  it("POST /api/orgs/:idOrSlug/campaigns gives concurrent creates of the same title distinct slugs", async () => {
    const { owner: o, org: fresh } = await newOrg();
    const results = await Promise.all(Array.from({ length: 4 }, () => create({ title: "Rush Hour" }, fresh, o.token)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(results.map((r) => r.body.slug).sort()).toEqual(["rush-hour", "rush-hour-2", "rush-hour-3", "rush-hour-4"]);
  });

  it("POST /api/orgs/:idOrSlug/campaigns rejects an explicit duplicate slug with 409", async () => {
    const slug = `dup-${randomBytes(4).toString("hex")}`;
    expect((await create({ title: "First", slug })).status).toBe(201);
    const res = await create({ title: "Second", slug });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), status: 409 });
  });

  it("POST /api/orgs/:idOrSlug/campaigns allows the same slug in another organization", async () => {
    const slug = `shared-${randomBytes(4).toString("hex")}`;
    expect((await create({ title: "Here", slug })).status).toBe(201);
    const { owner: o, org: other } = await newOrg();
    const res = await create({ title: "There", slug }, other, o.token);
    expect(res.status).toBe(201);
    expect(res.body.slug).toBe(slug);
    expect(res.body.orgId).toBe(other.id);
  });

  it("POST /api/orgs/:idOrSlug/campaigns strips HTML from the description and title", async () => {
    const res = await create({ title: "<b>Bold</b> title", description: "<script>alert(1)</script><b>Hi</b>" });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe("Bold title");
    expect(res.body.description).toBe("Hi");
  });

  describe("validation", () => {
    it("POST /api/orgs/:idOrSlug/campaigns requires a title", async () => {
      const res = await create({});
      expectValidation(res, "title");
      expect(res.body.details.fieldErrors.title).toEqual(["Required"]);
    });

    it("POST /api/orgs/:idOrSlug/campaigns accepts a title of 1 and 140 characters", async () => {
      expect((await create({ title: "x" })).status).toBe(201);
      const long = await create({ title: "t".repeat(140) });
      expect(long.status).toBe(201);
      expect(long.body.title).toHaveLength(140);
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects a title empty or over 140 characters after HTML stripping", async () => {
      expectValidation(await create({ title: "" }), "title");
      expectValidation(await create({ title: "<p></p>" }), "title");
      expectValidation(await create({ title: "t".repeat(141) }), "title");
      // Tags don't count towards the 140.
      const tagged = await create({ title: `<b>${"t".repeat(140)}</b>` });
      expect(tagged.status).toBe(201);
      expect(tagged.body.title).toBe("t".repeat(140));
    });

    it("POST /api/orgs/:idOrSlug/campaigns limits the description to 20 000 characters after HTML stripping", async () => {
      const ok = await create({ title: "Long", description: `<p>${"d".repeat(20_000)}</p>` });
      expect(ok.status).toBe(201);
      expect(ok.body.description).toHaveLength(20_000);
      const wrapped = await create({ title: "Wrapped", description: "d".repeat(20_000).replace(/d{100}/g, "<i>$&</i>") });
      expect(wrapped.status).toBe(201);
      expect(wrapped.body.description).toHaveLength(20_000);
      expectValidation(await create({ title: "Too long", description: "d".repeat(20_001) }), "description");
    });

    it.each(["#abc", "#ABC", "#1a7f5a", "#FFFFFF"])("POST /api/orgs/:idOrSlug/campaigns accepts the color %s", async (color) => {
      const res = await create({ title: "Color", color });
      expect(res.status).toBe(201);
      expect(res.body.color).toBe(color);
    });

    it.each(["abc", "#ab", "#abcd", "#abcdefg", "#ggg", "red", "rgb(0,0,0)", " #abc"])(
      "POST /api/orgs/:idOrSlug/campaigns rejects the color %j",
      async (color) => expectValidation(await create({ title: "Color", color }), "color"),
    );

    it("POST /api/orgs/:idOrSlug/campaigns accepts http and https URLs only", async () => {
      const ok = await create({ title: "URLs", coverImageUrl: "https://example.org/a.png", videoUrl: "http://example.org/v" });
      expect(ok.status).toBe(201);
      for (const bad of ["javascript:alert(1)", "ftp://example.org/a.png", "data:text/html,hi", "example.org/a.png", "not a url"]) {
        const res = await create({ title: "URLs", coverImageUrl: bad, videoUrl: bad });
        expectValidation(res, "coverImageUrl");
        expectValidation(res, "videoUrl");
      }
    });

    it("POST /api/orgs/:idOrSlug/campaigns takes a cover image on this site by its path, never a protocol-relative one", async () => {
      const ok = await create({ title: "Local cover", coverImageUrl: "/covers/winter-meals.svg" });
      expect(ok.status).toBe(201);
      expect(ok.body.coverImageUrl).toBe("/covers/winter-meals.svg");
      for (const bad of ["//evil.example/a.png", "/\\evil.example/a.png", "/a b.png", "/\\x"]) {
        expectValidation(await create({ title: "Bad cover", coverImageUrl: bad }), "coverImageUrl");
      }
      // A video is embedded from its host: a path is not a video URL.
      expectValidation(await create({ title: "Bad video", videoUrl: "/covers/winter-meals.svg" }), "videoUrl");
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects a suggested amount below 100 with the documented message", async () => {
      const res = await create({ title: "Amounts", suggestedAmounts: [2500, 99] });
      expect(res.status).toBe(400);
      const entries = Object.entries(res.body.details.fieldErrors as Record<string, string[]>).filter(([k]) =>
        k.startsWith("suggestedAmounts"),
      );
      expect(entries).toEqual([["suggestedAmounts.1", ["Number must be greater than or equal to 100"]]]);
      expect((await create({ title: "Amounts", suggestedAmounts: [100] })).status).toBe(201);
      expect((await create({ title: "Amounts", suggestedAmounts: [0] })).status).toBe(400);
      expect((await create({ title: "Amounts", suggestedAmounts: [150.5] })).status).toBe(400);
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects amounts that are not positive integers", async () => {
      expectValidation(await create({ title: "Goal", goalAmountCents: 0 }), "goalAmountCents");
      expectValidation(await create({ title: "Goal", goalAmountCents: -5 }), "goalAmountCents");
      expectValidation(await create({ title: "Goal", goalAmountCents: 10.5 }), "goalAmountCents");
      expectValidation(await create({ title: "Goal", goalAmountCents: "1000" }), "goalAmountCents");
    });

    it("POST /api/orgs/:idOrSlug/campaigns requires endDate after startDate (fieldErrors.endDate)", async () => {
      const same = await create({ title: "Dates", startDate: "2030-01-01T00:00:00Z", endDate: "2030-01-01T00:00:00Z" });
      expectValidation(same, "endDate");
      const before = await create({ title: "Dates", startDate: "2030-01-02T00:00:00Z", endDate: "2030-01-01T00:00:00Z" });
      expectValidation(before, "endDate");
      const after = await create({ title: "Dates", startDate: "2030-01-01T00:00:00Z", endDate: "2030-01-01T00:00:01Z" });
      expect(after.status).toBe(201);
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects dates that are not ISO 8601 date-times", async () => {
      expectValidation(await create({ title: "Dates", startDate: "tomorrow" }), "startDate");
      expectValidation(await create({ title: "Dates", endDate: "2030-13-01T00:00:00Z" }), "endDate");
      expectValidation(await create({ title: "Dates", scheduledPublishAt: 1893456000000 }), "scheduledPublishAt");
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects dates outside the years 1000–9999 (after the offset) with 400", async () => {
      expectValidation(await create({ title: "Dates", startDate: "0000-06-01T00:00:00Z" }), "startDate");
      expectValidation(await create({ title: "Dates", startDate: "0001-06-01T00:00:00Z" }), "startDate");
      expectValidation(await create({ title: "Dates", endDate: "9999-12-31T23:00:00-05:00" }), "endDate");
      expectValidation(await create({ title: "Dates", scheduledPublishAt: "1000-01-01T00:30:00+01:00" }), "scheduledPublishAt");
      const edges = await create({ title: "Dates", startDate: "1000-01-01T00:00:00Z", endDate: "9999-12-31T23:59:59Z" });
      expect(edges.status).toBe(201);
      expect(edges.body).toMatchObject({ startDate: "1000-01-01T00:00:00.000Z", endDate: "9999-12-31T23:59:59.000Z" });
      // What was stored reads back the same.
      const read = await get(`/api/campaigns/${edges.body.id}`, { token: owner.token });
      expect(read.body).toMatchObject({ startDate: "1000-01-01T00:00:00.000Z", endDate: "9999-12-31T23:59:59.000Z" });
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects NUL characters with 400 on the field", async () => {
      const res = await create({ title: "Nul\u0000title", coverImageUrl: "https://example.org/\u0000", parentCampaignId: "cmp_\u0000" });
      expectValidation(res, "title");
      expectValidation(res, "coverImageUrl");
      expectValidation(res, "parentCampaignId");
      expectValidation(await create({ title: "Nul", suggestedAmounts: [100], description: "a\u0000b" }), "description");
    });

    it("POST /api/orgs/:idOrSlug/campaigns accepts matchingRatioPct 1–1000 only", async () => {
      for (const pct of [1, 1000]) {
        const res = await create({ title: "Match", matchingRatioPct: pct });
        expect(res.status).toBe(201);
        expect(res.body.matchingRatioPct).toBe(pct);
      }
      for (const pct of [0, 1001, -1, 50.5]) expectValidation(await create({ title: "Match", matchingRatioPct: pct }), "matchingRatioPct");
    });

    it("POST /api/orgs/:idOrSlug/campaigns requires ticketPriceCents and ticketCapacity for EVENT", async () => {
      const neither = await create({ title: "Gala", type: "EVENT" });
      expectValidation(neither, "ticketPriceCents");
      expectValidation(neither, "ticketCapacity");
      expectValidation(await create({ title: "Gala", type: "EVENT", ticketPriceCents: 5000 }), "ticketCapacity");
      expectValidation(await create({ title: "Gala", type: "EVENT", ticketCapacity: 100 }), "ticketPriceCents");
      const ok = await create({ title: "Gala", type: "EVENT", ticketPriceCents: 5000, ticketCapacity: 100 });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ type: "EVENT", ticketPriceCents: 5000, ticketCapacity: 100, ticketsSold: 0, venue: null });
    });

    it("POST /api/orgs/:idOrSlug/campaigns takes an event's venue as plain text; PATCH changes and clears it; donors see it", async () => {
      const res = await create({
        title: "Harbour gala",
        type: "EVENT",
        ticketPriceCents: 5000,
        ticketCapacity: 100,
        venue: "<b>Grand Hall</b>, 12 Harbour St",
        status: "ACTIVE",
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.venue).toBe("Grand Hall, 12 Harbour St");
      const view = await get(`/api/public/campaigns/${res.body.id}`);
      expect(view.body.campaign.venue).toBe("Grand Hall, 12 Harbour St");
      expectValidation(await patch(`/api/campaigns/${res.body.id}`, { venue: "x".repeat(301) }, { token: owner.token }), "venue");
      const moved = await patch(`/api/campaigns/${res.body.id}`, { venue: "The Boathouse" }, { token: owner.token });
      expect(moved.body.venue).toBe("The Boathouse");
      expect((await patch(`/api/campaigns/${res.body.id}`, { venue: null }, { token: owner.token })).body.venue).toBeNull();
    });

    it("POST /api/orgs/:idOrSlug/campaigns accepts parentCampaignId naming a PEER_TO_PEER campaign of the same org", async () => {
      const parent = await newCampaign(org, owner.token, { title: "P2P parent", type: "PEER_TO_PEER" });
      const res = await create({ title: "My page", parentCampaignId: parent.id });
      expect(res.status).toBe(201);
      expect(res.body.parentCampaignId).toBe(parent.id);
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects a parentCampaignId that is not a PEER_TO_PEER campaign of the same org", async () => {
      const donation = await newCampaign(org, owner.token, { title: "Plain" });
      expectValidation(await create({ title: "Page", parentCampaignId: donation.id }), "parentCampaignId");
      expectValidation(await create({ title: "Page", parentCampaignId: "cmp_doesnotexist" }), "parentCampaignId");
      const { owner: o, org: other } = await newOrg();
      const foreign = await newCampaign(other, o.token, { title: "Their P2P", type: "PEER_TO_PEER" });
      expectValidation(await create({ title: "Page", parentCampaignId: foreign.id }), "parentCampaignId");
    });

    it("POST /api/orgs/:idOrSlug/campaigns refuses a fundraiser page as a parent (no nesting)", async () => {
      const parent = await newCampaign(org, owner.token, { type: "PEER_TO_PEER" });
      const page = await newCampaign(org, owner.token, { type: "PEER_TO_PEER", parentCampaignId: parent.id });
      expectValidation(await create({ title: "Grandchild", parentCampaignId: page.id }), "parentCampaignId");
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects values of the wrong type with 400 and details.fieldErrors", async () => {
      const res = await create({
        title: { nested: "object" },
        type: "RAFFLE",
        status: "PAUSED",
        showGoal: "yes",
        suggestedAmounts: { 0: 2500 },
        matchingEnabled: 1,
        color: ["#abc"],
        ticketCapacity: null,
        minAmountCents: 50,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Validation failed");
      expect(Object.keys(res.body.details.fieldErrors).sort()).toEqual(
        ["color", "matchingEnabled", "minAmountCents", "showGoal", "status", "suggestedAmounts", "title", "type"].sort(),
      );
      for (const messages of Object.values(res.body.details.fieldErrors)) {
        expect(messages).toEqual(expect.arrayContaining([expect.any(String)]));
      }
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects a body that is not an object", async () => {
      for (const body of [[], "title", 42, null]) {
        const res = await create(body as never);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe("Validation failed");
        expect(res.body.details.formErrors.length).toBeGreaterThan(0);
      }
    });

    it("POST /api/orgs/:idOrSlug/campaigns rejects an invalid slug", async () => {
      for (const slug of ["Upper", "with space", "-lead", "trail-", "a--b", "x".repeat(81)]) {
        expectValidation(await create({ title: "Slug", slug }), "slug");
      }
    });
  });
});

describe("GET /api/orgs/:idOrSlug/campaigns", () => {
  let listOwner: TestUser;
  let listOrg: Org;
  let ids: string[] = [];

  beforeAll(async () => {
    ({ owner: listOwner, org: listOrg } = await newOrg());
    ids = [];
    const specs = [
      { title: "One" },
      { title: "Two", type: "PEER_TO_PEER" },
      { title: "Three", status: "ACTIVE" },
      { title: "Four", type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 10, status: "ACTIVE" },
      { title: "Five", type: "MEMBERSHIP" },
    ];
    for (const spec of specs) ids.push((await newCampaign(listOrg, listOwner.token, spec)).id);
  });

  const list = (query = "") => get(`/api/orgs/${listOrg.slug}/campaigns${query}`, { token: listOwner.token });

  it("GET /api/orgs/:idOrSlug/campaigns without paging params returns all campaigns, newest first", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => c.id)).toEqual([...ids].reverse());
    const created = res.body.data.map((c: any) => Date.parse(c.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    expect(res.body.pagination).toEqual({ page: 1, limit: 5, total: 5, hasMore: false });
  });

  it("GET /api/orgs/:idOrSlug/campaigns pages with page and limit", async () => {
    const newestFirst = [...ids].reverse();
    const first = await list("?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: any) => c.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 5, hasMore: true });
    const second = await list("?page=2&limit=2");
    expect(second.body.data.map((c: any) => c.id)).toEqual(newestFirst.slice(2, 4));
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, hasMore: true });
    const third = await list("?page=3&limit=2");
    expect(third.body.data.map((c: any) => c.id)).toEqual(newestFirst.slice(4));
    expect(third.body.pagination).toEqual({ page: 3, limit: 2, total: 5, hasMore: false });
    const beyond = await list("?page=9&limit=2");
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toEqual({ page: 9, limit: 2, total: 5, hasMore: false });
  });

  it("GET /api/orgs/:idOrSlug/campaigns with only page uses a default limit of 20–50", async () => {
    const res = await list("?page=1");
    expect(res.status).toBe(200);
    expect(res.body.pagination.limit).toBeGreaterThanOrEqual(20);
    expect(res.body.pagination.limit).toBeLessThanOrEqual(50);
    expect(res.body.pagination).toMatchObject({ page: 1, total: 5, hasMore: false });
    expect(res.body.data).toHaveLength(5);
  });

  it.each(["?limit=0", "?limit=101", "?page=0", "?page=-1", "?limit=abc", "?page=1.5", "?status=OPEN", "?type=RAFFLE"])(
    "GET /api/orgs/:idOrSlug/campaigns rejects %s with 400",
    async (query) => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Validation failed");
      expect(Object.keys(res.body.details.fieldErrors)).toHaveLength(1);
    },
  );

  it("GET /api/orgs/:idOrSlug/campaigns accepts limit=100", async () => {
    const res = await list("?limit=100");
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: 5, hasMore: false });
  });

  it("GET /api/orgs/:idOrSlug/campaigns filters by status and type", async () => {
    const active = await list("?status=ACTIVE");
    expect(active.body.data.map((c: any) => c.id)).toEqual([ids[3], ids[2]]);
    expect(active.body.pagination.total).toBe(2);
    const drafts = await list("?status=DRAFT");
    expect(drafts.body.data.map((c: any) => c.id)).toEqual([ids[4], ids[1], ids[0]]);
    const p2p = await list("?type=PEER_TO_PEER");
    expect(p2p.body.data.map((c: any) => c.id)).toEqual([ids[1]]);
    const both = await list("?status=ACTIVE&type=EVENT");
    expect(both.body.data.map((c: any) => c.id)).toEqual([ids[3]]);
    const none = await list("?status=ENDED");
    expect(none.body.data).toEqual([]);
    const paged = await list("?status=DRAFT&limit=2&page=2");
    expect(paged.body.data.map((c: any) => c.id)).toEqual([ids[0]]);
    expect(paged.body.pagination).toEqual({ page: 2, limit: 2, total: 3, hasMore: false });
  });

  it("GET /api/orgs/:idOrSlug/campaigns shows only the organization's own campaigns", async () => {
    const res = await get(`/api/orgs/${org.id}/campaigns`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data.every((c: any) => c.orgId === org.id)).toBe(true);
    expect(res.body.data.some((c: any) => ids.includes(c.id))).toBe(false);
  });
});

describe("GET /api/campaigns/:id", () => {
  it("GET /api/campaigns/:id returns the campaign", async () => {
    const c = await newCampaign(org, owner.token, { title: "Read me", goalAmountCents: 5000 });
    const res = await get(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(c);
  });

  it("GET /api/campaigns/:id lets a MEMBER read", async () => {
    const c = await newCampaign(org, owner.token);
    const member = await newUser();
    await addMember(org.id, owner.token, member, "MEMBER");
    const res = await get(`/api/campaigns/${c.id}`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(c.id);
  });

  it("GET /api/campaigns/:id answers 404 Campaign not found for an unknown campaign", async () => {
    const res = await get("/api/campaigns/cmp_doesnotexist0000", { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
  });
});

describe("PATCH /api/campaigns/:id", () => {
  it("PATCH /api/campaigns/:id refuses to move a fundraiser page with donations to another parent (409)", async () => {
    const parentA = await newCampaign(org, owner.token, { type: "PEER_TO_PEER" });
    const parentB = await newCampaign(org, owner.token, { type: "PEER_TO_PEER" });
    const page = await newCampaign(org, owner.token, { type: "PEER_TO_PEER", parentCampaignId: parentA.id });
    // An empty page may move freely.
    expect((await update(page.id, { parentCampaignId: parentB.id })).status).toBe(200);
    const db = await testDb();
    await db.update(campaigns).set({ donationCount: 1, raisedAmountCents: 500 }).where(eq(campaigns.id, page.id));
    const res = await update(page.id, { parentCampaignId: parentA.id });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("A fundraiser page that has donations cannot move to another parent campaign");
    expect((await update(page.id, { title: "Still editable" })).status).toBe(200);
  });

  it("PATCH /api/campaigns/:id updates fields and leaves the rest alone", async () => {
    const c = await newCampaign(org, owner.token, { title: "Before", color: "#fff", goalAmountCents: 1000 });
    const res = await update(c.id, {
      title: "After",
      description: "<p>New <em>text</em></p>",
      goalAmountCents: 2000,
      color: null,
      suggestedAmounts: [1000],
      showGoal: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: c.id,
      title: "After",
      description: "New text",
      goalAmountCents: 2000,
      color: null,
      suggestedAmounts: [1000],
      showGoal: false,
      slug: c.slug,
      status: "DRAFT",
      showDonorRoll: true,
      createdAt: c.createdAt,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(c.updatedAt));
    expect((await get(`/api/campaigns/${c.id}`, { token: owner.token })).body).toEqual(res.body);
  });

  it("PATCH /api/campaigns/:id validates fields like create", async () => {
    const c = await newCampaign(org, owner.token);
    expectValidation(await update(c.id, { title: "" }), "title");
    expectValidation(await update(c.id, { color: "blue" }), "color");
    expectValidation(await update(c.id, { videoUrl: "javascript:alert(1)" }), "videoUrl");
    expectValidation(await update(c.id, { matchingRatioPct: 0 }), "matchingRatioPct");
    expectValidation(await update(c.id, { status: "LIVE" }), "status");
    const unchanged = await get(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(unchanged.body).toEqual(c);
  });

  it("PATCH /api/campaigns/:id to a slug taken in the organization is 409", async () => {
    const a = await newCampaign(org, owner.token);
    const b = await newCampaign(org, owner.token);
    const res = await update(b.id, { slug: a.slug });
    expect(res.status).toBe(409);
    expect(res.body.status).toBe(409);
  });

  it("PATCH /api/campaigns/:id keeps cross-field rules against the stored values", async () => {
    const c = await newCampaign(org, owner.token, { startDate: "2030-01-10T00:00:00Z" });
    expectValidation(await update(c.id, { type: "EVENT" }), "ticketPriceCents");
    expectValidation(await update(c.id, { type: "EVENT", ticketPriceCents: 100 }), "ticketCapacity");
    expectValidation(await update(c.id, { endDate: "2030-01-09T00:00:00Z" }), "endDate");
    const event = await update(c.id, { type: "EVENT", ticketPriceCents: 100, ticketCapacity: 5 });
    expect(event.status).toBe(200);
    expectValidation(await update(c.id, { ticketCapacity: null }), "ticketCapacity");
    const stored = await get(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(stored.body).toMatchObject({ type: "EVENT", ticketPriceCents: 100, ticketCapacity: 5, endDate: null });
  });

  it("PATCH /api/campaigns/:id cannot lower ticketCapacity below the tickets already sold", async () => {
    const c = await newCampaign(org, owner.token, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 10 });
    const db = await testDb();
    await db.update(campaigns).set({ ticketsSold: 6 }).where(eq(campaigns.id, c.id));
    expectValidation(await update(c.id, { ticketCapacity: 5 }), "ticketCapacity");
    const ok = await update(c.id, { ticketCapacity: 6 });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ticketCapacity: 6, ticketsSold: 6 });
  });

  it("PATCH /api/campaigns/:id cannot make a campaign its own parent", async () => {
    const c = await newCampaign(org, owner.token, { type: "PEER_TO_PEER" });
    expectValidation(await update(c.id, { parentCampaignId: c.id }), "parentCampaignId");
  });

  it("PATCH /api/campaigns/:id rejects NUL characters and out-of-range dates with 400", async () => {
    const c = await newCampaign(org, owner.token);
    expectValidation(await update(c.id, { videoUrl: "http://example.org/\u0000" }), "videoUrl");
    expectValidation(await update(c.id, { matchingOrgName: "\u0000" }), "matchingOrgName");
    expectValidation(await update(c.id, { endDate: "0000-01-01T00:00:00Z" }), "endDate");
    expect((await get(`/api/campaigns/${c.id}`, { token: owner.token })).body).toEqual(c);
  });

  it("GET /api/campaigns/:id with a NUL in the ID answers 404", async () => {
    const res = await get("/api/campaigns/cmp_%00", { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body.status).toBe(404);
  });

  it("PATCH /api/campaigns/:id answers 404 Campaign not found for an unknown campaign", async () => {
    const res = await update("cmp_doesnotexist0000", { title: "x" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
  });

  describe("status transitions", () => {
    const allowed = [
      ["DRAFT", "ACTIVE"],
      ["ACTIVE", "PAUSED"],
      ["PAUSED", "ACTIVE"],
      ["ACTIVE", "ENDED"],
      ["PAUSED", "ENDED"],
    ] as const;
    const illegal = [
      ["DRAFT", "PAUSED"],
      ["DRAFT", "ENDED"],
      ["ACTIVE", "DRAFT"],
      ["PAUSED", "DRAFT"],
      ["ENDED", "ACTIVE"],
      ["ENDED", "PAUSED"],
      ["ENDED", "DRAFT"],
    ] as const;

    it.each(allowed)("PATCH /api/campaigns/:id allows %s → %s", async (from, to) => {
      const c = await campaignIn(from);
      const res = await update(c.id, { status: to });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(to);
      expect((await get(`/api/campaigns/${c.id}`, { token: owner.token })).body.status).toBe(to);
    });

    it.each(illegal)("PATCH /api/campaigns/:id refuses %s → %s with 409", async (from, to) => {
      const c = await campaignIn(from);
      const res = await update(c.id, { status: to });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: expect.any(String), status: 409 });
      expect((await get(`/api/campaigns/${c.id}`, { token: owner.token })).body.status).toBe(from);
    });

    it("PATCH /api/campaigns/:id refuses an illegal status change without applying the other fields", async () => {
      const c = await campaignIn("DRAFT");
      const res = await update(c.id, { status: "ENDED", title: "Should not stick" });
      expect(res.status).toBe(409);
      expect((await get(`/api/campaigns/${c.id}`, { token: owner.token })).body.title).toBe(c.title);
    });

    it("PATCH /api/campaigns/:id covers every pair of statuses", () => {
      const all = ["DRAFT", "ACTIVE", "PAUSED", "ENDED"];
      const pairs = [...allowed, ...illegal].map(([a, b]) => `${a}>${b}`).sort();
      const expected = all.flatMap((a) => all.filter((b) => b !== a).map((b) => `${a}>${b}`)).sort();
      expect(pairs).toEqual(expected);
    });
  });
});

describe("DELETE /api/campaigns/:id", () => {
  it("DELETE /api/campaigns/:id deletes a DRAFT (204), then it is 404", async () => {
    const c = await newCampaign(org, owner.token);
    const res = await del(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const after = await get(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(after.status).toBe(404);
    expect(after.body).toEqual({ error: "Campaign not found", status: 404 });
    expect((await del(`/api/campaigns/${c.id}`, { token: owner.token })).status).toBe(404);
  });

  it.each(["ACTIVE", "PAUSED", "ENDED"] as const)("DELETE /api/campaigns/:id refuses an %s campaign with 409", async (status) => {
    const c = await campaignIn(status);
    const res = await del(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), status: 409 });
    expect((await get(`/api/campaigns/${c.id}`, { token: owner.token })).status).toBe(200);
  });

  it("DELETE /api/campaigns/:id refuses a DRAFT that has a donation with 409", async () => {
    const c = await newCampaign(org, owner.token);
    const db = await testDb();
    const suffix = randomBytes(6).toString("hex");
    const email = `donor-${suffix}@example.org`;
    await db.insert(donors).values({ id: `dnr_${suffix}`, orgId: org.id, email });
    await db.insert(donations).values({
      id: `don_${suffix}`,
      orgId: org.id,
      campaignId: c.id,
      donorId: `dnr_${suffix}`,
      amount: 2500,
      email,
      status: "FAILED",
    });
    const res = await del(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), status: 409 });
    const [row] = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.id, c.id));
    expect(row?.id).toBe(c.id);
  });

  it("DELETE /api/campaigns/:id answers 404 Campaign not found for an unknown campaign", async () => {
    const res = await del("/api/campaigns/cmp_doesnotexist0000", { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
  });
});
