import { beforeAll, describe, expect, it } from "vitest";
import { campaigns } from "@/db/schema";
import { demoCampaigns } from "@/lib/services/seed/demo";
import { get, newOrg, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";

// The demo's campaigns, stored for an organization of this test (the first-run seed itself runs
// only on an empty database), as the API serves them: published ones with their cover and story.
let owner: TestUser;
let org: { id: string; slug: string };

beforeAll(async () => {
  ({ owner, org } = await newOrg(undefined, { name: "Riverside Food Bank" }));
  await (await testDb()).insert(campaigns).values(demoCampaigns(org.id, Date.now()));
});

describe("the demo seed's campaigns", () => {
  it("GET /api/orgs/:idOrSlug/campaigns lists each with its /covers/ image and story", async () => {
    const res = await get(`/api/orgs/${org.slug}/campaigns?limit=100`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const rows = res.body.data as { slug: string; status: string; coverImageUrl: string; description: string }[];
    expect(rows.map((c) => c.slug).sort()).toEqual([
      "friends",
      "harvest-gala",
      "maya-runs",
      "run-for-riverside",
      "spring-garden",
      "winter-meals",
    ]);
    for (const c of rows) {
      expect(c.coverImageUrl, c.slug).toBe(`/covers/${c.slug}.svg`);
      expect(c.description.length, c.slug).toBeGreaterThan(80);
    }
    expect(rows.find((c) => c.slug === "spring-garden")!.status).toBe("DRAFT");
  });

  it("GET /api/public/orgs/:orgSlug/campaigns/:slug serves a published one's cover, and not the draft", async () => {
    const res = await get(`/api/public/orgs/${org.slug}/campaigns/winter-meals`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.campaign.coverImageUrl).toBe("/covers/winter-meals.svg");
    expect(res.body.campaign.description).toMatch(/^Every \$25 puts a week of hot meals on a neighbour's table this winter\./);
    expect((await get(`/api/public/orgs/${org.slug}/campaigns/spring-garden`)).status).toBe(404);
  });
});
