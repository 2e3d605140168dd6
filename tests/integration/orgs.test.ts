import { describe, expect, it } from "vitest";
import { addMember, del, get, newOrg, newUser, patch, post, uniqueSlug, type TestUser } from "../helpers/api";
import { expectNewRecord } from "../helpers/contract";
import { verifyCustomDomain } from "../helpers/custom-domains";

function expectBadField(res: { status: number; body: any }, field: string) {
  expect(res.status).toBe(400);
  expect(res.body.error).toBe("Validation failed");
  expect(res.body.details.fieldErrors[field]).toEqual([expect.any(String)]);
}

/** A user who has signed in (so their user ID is their token's sub) and joined the org with `role`. */
async function joined(orgId: string, ownerToken: string, role: "OWNER" | "ADMIN" | "MEMBER", name?: string): Promise<TestUser> {
  const user = await newUser(name);
  expect((await get("/api/orgs", { token: user.token })).status).toBe(200);
  await addMember(orgId, ownerToken, user, role);
  return user;
}

const NULLABLE_ORG_FIELDS = [
  "processorAccountId",
  "legalName",
  "taxId",
  "logoUrl",
  "color",
  "customDomain",
  "customDomainStatus",
  "customDomainVerification",
] as const;

describe("POST /api/orgs", () => {
  it("POST /api/orgs creates an organization (201) with every documented field and nulls for unset ones", async () => {
    const user = await newUser("Creator");
    const slug = uniqueSlug("acme");
    const res = await post("/api/orgs", { name: "Acme Relief", slug }, { token: user.token });
    expect(res.status).toBe(201);
    const org = res.body;
    expect(org).toMatchObject({
      name: "Acme Relief",
      slug,
      status: "ONBOARDING",
      chargesEnabled: false,
      payoutsEnabled: false,
      currency: "usd",
      donateBaseUrl: `http://localhost:3000/o/${slug}`,
    });
    expectNewRecord(org, NULLABLE_ORG_FIELDS);
  });

  it("POST /api/orgs makes the caller OWNER, visible in GET /api/orgs with the role", async () => {
    const user = await newUser();
    const { org } = await newOrg(user);
    const list = await get("/api/orgs", { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: org.id, slug: org.slug, role: "OWNER" });
    expect(list.body.pagination).toEqual({ page: 1, limit: 1, total: 1, hasMore: false });

    const members = await get(`/api/orgs/${org.id}/members`, { token: user.token });
    expect(members.status).toBe(200);
    expect(members.body.data).toEqual([expect.objectContaining({ email: user.email, role: "OWNER" })]);
  });

  it("POST /api/orgs defaults notificationEmail to the creator's email", async () => {
    const user = await newUser();
    const res = await post("/api/orgs", { name: "Mail Default", slug: uniqueSlug() }, { token: user.token });
    expect(res.status).toBe(201);
    expect(res.body.notificationEmail).toBe(user.email);

    const explicit = await post(
      "/api/orgs",
      { name: "Mail Explicit", slug: uniqueSlug(), notificationEmail: "alerts@example.org" },
      { token: user.token },
    );
    expect(explicit.status).toBe(201);
    expect(explicit.body.notificationEmail).toBe("alerts@example.org");
  });

  it("POST /api/orgs generates the slug from the name and de-duplicates it", async () => {
    const user = await newUser();
    const name = `Helping Hands ${uniqueSlug("x")}`;
    const base = name.toLowerCase().replace(/ /g, "-");
    const first = await post("/api/orgs", { name }, { token: user.token });
    expect(first.status).toBe(201);
    expect(first.body.slug).toBe(base);
    expect(first.body.donateBaseUrl).toBe(`http://localhost:3000/o/${base}`);
    const second = await post("/api/orgs", { name }, { token: user.token });
    expect(second.status).toBe(201);
    expect(second.body.slug).toBe(`${base}-2`);
    const third = await post("/api/orgs", { name }, { token: user.token });
    expect(third.status).toBe(201);
    expect(third.body.slug).toBe(`${base}-3`);
  });

  it("POST /api/orgs generates a valid slug from a name too short or without letters", async () => {
    const user = await newUser();
    for (const name of ["A", "!!!"]) {
      const res = await post("/api/orgs", { name }, { token: user.token });
      expect(res.status, name).toBe(201);
      expect(res.body.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(res.body.slug.length).toBeGreaterThanOrEqual(3);
      expect(res.body.slug.length).toBeLessThanOrEqual(48);
    }
  });

  it("POST /api/orgs gives concurrent creates of the same name distinct slugs", async () => {
    const user = await newUser();
    const name = `Parallel ${uniqueSlug("p")}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => post("/api/orgs", { name }, { token: user.token })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const slugs = results.map((r) => r.body.slug).sort();
    const base = name.toLowerCase().replace(/ /g, "-");
    expect(slugs).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`, `${base}-5`].sort());
  });

  it("POST /api/orgs rejects a duplicate slug with 409", async () => {
    const { org } = await newOrg();
    const other = await newUser();
    const res = await post("/api/orgs", { name: "Copycat", slug: org.slug }, { token: other.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), status: 409 });
  });

  it.each([
    ["too short", "ab"],
    ["too long", "a".repeat(49)],
    ["upper case", "Acme-Org"],
    ["leading hyphen", "-acme"],
    ["trailing hyphen", "acme-"],
    ["double hyphen", "acme--org"],
    ["underscore", "acme_org"],
    ["space", "acme org"],
    ["non-ascii", "acmé-org"],
  ])("POST /api/orgs rejects a slug that is %s with 400 and fieldErrors.slug", async (_label, slug) => {
    const user = await newUser();
    const res = await post("/api/orgs", { name: "Bad Slug", slug }, { token: user.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Validation failed");
    expect(res.body.status).toBe(400);
    expect(res.body.details.fieldErrors.slug).toEqual([expect.any(String)]);
  });

  it("POST /api/orgs accepts slugs of exactly 3 and 48 characters", async () => {
    const user = await newUser();
    const short = uniqueSlug("x").slice(-3);
    const res3 = await post("/api/orgs", { name: "Three", slug: short }, { token: user.token });
    // A 3-char random slug may (very rarely) collide on a shared database; anything else must be 201.
    expect([201, 409]).toContain(res3.status);
    const long = `${uniqueSlug("x")}-${"a".repeat(48)}`.slice(0, 48).replace(/-+$/, "a");
    expect(long).toHaveLength(48);
    const res48 = await post("/api/orgs", { name: "Forty-eight", slug: long }, { token: user.token });
    expect(res48.status).toBe(201);
    expect(res48.body.slug).toBe(long);
  });

  it("POST /api/orgs strips HTML from the name", async () => {
    const user = await newUser();
    const res = await post("/api/orgs", { name: "<b>Acme</b> Relief<script>alert(1)</script>", slug: uniqueSlug() }, { token: user.token });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Acme Relief");
  });

  it("POST /api/orgs rejects a name that is empty after HTML stripping", async () => {
    const user = await newUser();
    const res = await post("/api/orgs", { name: "<i></i>", slug: uniqueSlug() }, { token: user.token });
    expect(res.status).toBe(400);
    expect(res.body.details.fieldErrors.name).toEqual([expect.any(String)]);
  });

  it("POST /api/orgs requires a name", async () => {
    const user = await newUser();
    const res = await post("/api/orgs", { slug: uniqueSlug() }, { token: user.token });
    expect(res.status).toBe(400);
    expect(res.body.details.fieldErrors.name).toEqual(["Required"]);
  });

  it("POST /api/orgs rejects invalid notificationEmail, logoUrl and color", async () => {
    const user = await newUser();
    const res = await post(
      "/api/orgs",
      { name: "Invalid", slug: uniqueSlug(), notificationEmail: "not-an-email", logoUrl: "javascript:alert(1)", color: "red" },
      { token: user.token },
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details.fieldErrors).sort()).toEqual(["color", "logoUrl", "notificationEmail"]);
  });
});

describe("GET /api/orgs/:idOrSlug", () => {
  it("GET /api/orgs/:idOrSlug returns the organization by id and by slug", async () => {
    const { owner, org } = await newOrg();
    const byId = await get(`/api/orgs/${org.id}`, { token: owner.token });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(org);
    const bySlug = await get(`/api/orgs/${org.slug}`, { token: owner.token });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual(org);
  });

  it("GET /api/orgs/:idOrSlug answers 404 Organization not found for an unknown org", async () => {
    const user = await newUser();
    for (const idOrSlug of ["org_doesnotexist0000000", uniqueSlug("missing")]) {
      const res = await get(`/api/orgs/${idOrSlug}`, { token: user.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Organization not found", status: 404 });
    }
  });

  it("GET /api/orgs/:idOrSlug lets a MEMBER read", async () => {
    const { owner, org } = await newOrg();
    const member = await joined(org.id, owner.token, "MEMBER");
    const res = await get(`/api/orgs/${org.slug}`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(org.id);
  });
});

describe("PATCH /api/orgs/:idOrSlug", () => {
  it("PATCH /api/orgs/:idOrSlug updates fields by id and by slug", async () => {
    const { owner, org } = await newOrg();
    const byId = await patch(
      `/api/orgs/${org.id}`,
      {
        name: "<em>Renamed</em>",
        legalName: "Renamed Inc.",
        taxId: "12-3456789",
        color: "#1a7f5a",
        logoUrl: "https://example.org/logo.png",
      },
      { token: owner.token },
    );
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({
      id: org.id,
      name: "Renamed",
      legalName: "Renamed Inc.",
      taxId: "12-3456789",
      color: "#1a7f5a",
      logoUrl: "https://example.org/logo.png",
    });
    expect(Date.parse(byId.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(org.updatedAt));

    const bySlug = await patch(`/api/orgs/${org.slug}`, { color: null }, { token: owner.token });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.color).toBeNull();
    expect(bySlug.body.name).toBe("Renamed");

    const read = await get(`/api/orgs/${org.id}`, { token: owner.token });
    expect(read.body).toMatchObject({ name: "Renamed", color: null, legalName: "Renamed Inc." });
  });

  it("PATCH /api/orgs/:idOrSlug changes the slug and donateBaseUrl follows", async () => {
    const { owner, org } = await newOrg();
    const slug = uniqueSlug("moved");
    const res = await patch(`/api/orgs/${org.id}`, { slug }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe(slug);
    expect(res.body.donateBaseUrl).toBe(`http://localhost:3000/o/${slug}`);
    expect((await get(`/api/orgs/${slug}`, { token: owner.token })).status).toBe(200);
    expect((await get(`/api/orgs/${org.slug}`, { token: owner.token })).status).toBe(404);
  });

  it("PATCH /api/orgs/:idOrSlug with a customDomain makes donateBaseUrl use it once verified", async () => {
    const { owner, org } = await newOrg();
    const domain = `${uniqueSlug("give")}.example.org`;
    const res = await patch(`/api/orgs/${org.id}`, { customDomain: domain.toUpperCase() }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.customDomain).toBe(domain);
    expect(res.body.customDomainStatus).toBe("PENDING");
    expect(res.body.customDomainVerification).toEqual({
      type: "TXT",
      name: `_goodfund.${domain}`,
      value: expect.stringMatching(/^goodfund-verification=[0-9a-f]{32}$/),
    });
    expect(res.body.donateBaseUrl).toBe(`http://localhost:3000/o/${org.slug}`);
    const verified = await verifyCustomDomain(res.body, owner.token);
    expect(verified.donateBaseUrl).toBe(`https://${domain}`);
    const cleared = await patch(`/api/orgs/${org.id}`, { customDomain: null }, { token: owner.token });
    expect(cleared.body.donateBaseUrl).toBe(`http://localhost:3000/o/${org.slug}`);
    expectBadField(
      await patch(`/api/orgs/${org.id}`, { customDomain: "https://give.example.org/" }, { token: owner.token }),
      "customDomain",
    );
  });

  it("PATCH /api/orgs/:idOrSlug lets an ADMIN update", async () => {
    const { owner, org } = await newOrg();
    const admin = await joined(org.id, owner.token, "ADMIN");
    const res = await patch(`/api/orgs/${org.id}`, { name: "By Admin" }, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("By Admin");
  });

  it("PATCH /api/orgs/:idOrSlug by a MEMBER is 403", async () => {
    const { owner, org } = await newOrg();
    const member = await joined(org.id, owner.token, "MEMBER");
    const res = await patch(`/api/orgs/${org.id}`, { name: "Nope" }, { token: member.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    expect((await get(`/api/orgs/${org.id}`, { token: owner.token })).body.name).toBe(org.name);
  });

  it("PATCH /api/orgs/:idOrSlug to a slug that is taken is 409", async () => {
    const { owner, org } = await newOrg();
    const { org: other } = await newOrg();
    const res = await patch(`/api/orgs/${org.id}`, { slug: other.slug }, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), status: 409 });
    expect((await get(`/api/orgs/${org.id}`, { token: owner.token })).body.slug).toBe(org.slug);
  });

  it("PATCH /api/orgs/:idOrSlug rejects an invalid slug with 400 and fieldErrors.slug", async () => {
    const { owner, org } = await newOrg();
    const res = await patch(`/api/orgs/${org.id}`, { slug: "No Good" }, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.details.fieldErrors.slug).toEqual([expect.any(String)]);
  });

  it("PATCH /api/orgs/:idOrSlug stores a lone UTF-16 surrogate as U+FFFD (its audit entry is JSON), never a 500", async () => {
    const { owner, org } = await newOrg();
    const res = await patch(`/api/orgs/${org.id}`, { taxId: "12\udfff\ud80034" }, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.taxId).toBe("12\ufffd\ufffd34");
    const log = await get(`/api/orgs/${org.id}/audit-log?action=organization.updated`, { token: owner.token });
    expect(log.status, log.text).toBe(200);
    expect(JSON.stringify(log.body.data[0].data)).toContain("12\ufffd\ufffd34");
  });

  it("PATCH /api/orgs/:idOrSlug rejects NUL characters with 400 on the field", async () => {
    const { owner, org } = await newOrg();
    const res = await patch(
      `/api/orgs/${org.id}`,
      { name: "A\u0000B", logoUrl: "https://example.org/\u0000.png", taxId: "\u0000" },
      { token: owner.token },
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details.fieldErrors).sort()).toEqual(["logoUrl", "name", "taxId"]);
    expect((await get(`/api/orgs/${org.id}`, { token: owner.token })).body).toEqual(org);
  });

  it("GET /api/orgs/:idOrSlug with a NUL in the path answers 404, not 500", async () => {
    const user = await newUser();
    for (const path of ["/api/orgs/%00", "/api/orgs/org_%00x/members", "/api/orgs/a%00b/campaigns"]) {
      const res = await get(path, { token: user.token });
      expect(res.status, path).toBe(404);
      expect(res.body.status).toBe(404);
    }
  });

  it("PATCH /api/orgs/:idOrSlug answers 404 Organization not found for an unknown org", async () => {
    const user = await newUser();
    const res = await patch(`/api/orgs/${uniqueSlug("nowhere")}`, { name: "x" }, { token: user.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Organization not found", status: 404 });
  });
});

describe("GET /api/orgs/:idOrSlug/members", () => {
  it("GET /api/orgs/:idOrSlug/members lists everyone with their role", async () => {
    const { owner, org } = await newOrg();
    const admin = await newUser("Ada Admin");
    const member = await newUser("Mo Member");
    await addMember(org.id, owner.token, admin, "ADMIN");
    await addMember(org.id, owner.token, member, "MEMBER");
    const res = await get(`/api/orgs/${org.slug}/members`, { token: member.token });
    expect(res.status).toBe(200);
    const byEmail = Object.fromEntries(res.body.data.map((m: any) => [m.email, m.role]));
    expect(byEmail).toEqual({ [owner.email]: "OWNER", [admin.email]: "ADMIN", [member.email]: "MEMBER" });
    for (const m of res.body.data) {
      expect(Object.keys(m).sort()).toEqual(["createdAt", "email", "name", "role", "userId"]);
    }
    expect(res.body.pagination).toMatchObject({ total: 3, hasMore: false });
  });
});

describe("POST /api/orgs/:idOrSlug/members", () => {
  it("POST /api/orgs/:idOrSlug/members adds an existing user by email (201)", async () => {
    const { owner, org } = await newOrg();
    const user = await newUser("Existing");
    expect((await get("/api/orgs", { token: user.token })).status).toBe(200); // signs in first
    const res = await post(`/api/orgs/${org.id}/members`, { email: user.email, role: "ADMIN" }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userId: user.sub, email: user.email, role: "ADMIN" });
    const mine = await get("/api/orgs", { token: user.token });
    expect(mine.body.data).toEqual([expect.objectContaining({ id: org.id, role: "ADMIN" })]);
  });

  it("POST /api/orgs/:idOrSlug/members defaults the role to MEMBER", async () => {
    const { owner, org } = await newOrg();
    const user = await newUser();
    const res = await post(`/api/orgs/${org.id}/members`, { email: user.email }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body.role).toBe("MEMBER");
  });

  it("POST /api/orgs/:idOrSlug/members with an unknown email creates a user recognised at first sign-in with any sub", async () => {
    const { owner, org } = await newOrg();
    const invitee = await newUser("Invitee"); // never used before the invitation
    const res = await post(`/api/orgs/${org.id}/members`, { email: invitee.email.toUpperCase(), role: "MEMBER" }, { token: owner.token });
    expect(res.status).toBe(201);
    const createdId = res.body.userId;
    expect(createdId).toEqual(expect.any(String));
    expect(createdId).not.toBe(invitee.sub);

    // The invitee signs in with a token whose sub the service has never seen.
    const read = await get(`/api/orgs/${org.id}`, { token: invitee.token });
    expect(read.status).toBe(200);
    const mine = await get("/api/orgs", { token: invitee.token });
    expect(mine.body.data).toEqual([expect.objectContaining({ id: org.id, role: "MEMBER" })]);
    const members = await get(`/api/orgs/${org.id}/members`, { token: invitee.token });
    expect(members.body.data.filter((m: any) => m.userId === createdId)).toHaveLength(1);
    expect(members.body.data).toHaveLength(2);

    // The member can leave by the user ID the invitation created.
    expect((await del(`/api/orgs/${org.id}/members/${createdId}`, { token: invitee.token })).status).toBe(204);
  });

  it("POST /api/orgs/:idOrSlug/members rejects a duplicate member with 409", async () => {
    const { owner, org } = await newOrg();
    const user = await joined(org.id, owner.token, "MEMBER");
    const again = await post(`/api/orgs/${org.id}/members`, { email: user.email, role: "ADMIN" }, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: expect.any(String), status: 409 });
    const differentCase = await post(`/api/orgs/${org.id}/members`, { email: user.email.toUpperCase() }, { token: owner.token });
    expect(differentCase.status).toBe(409);
    const self = await post(`/api/orgs/${org.id}/members`, { email: owner.email }, { token: owner.token });
    expect(self.status).toBe(409);
    const members = await get(`/api/orgs/${org.id}/members`, { token: owner.token });
    expect(members.body.data.find((m: any) => m.email === user.email).role).toBe("MEMBER");
  });

  it("POST /api/orgs rejects a NUL character in the name with 400", async () => {
    const user = await newUser();
    const res = await post("/api/orgs", { name: "Nul\u0000Org", slug: uniqueSlug() }, { token: user.token });
    expect(res.status).toBe(400);
    expect(res.body.details.fieldErrors.name).toEqual(["Must not contain NUL characters"]);
  });

  it("POST /api/orgs/:idOrSlug/members rejects an invalid email or role with 400", async () => {
    const { owner, org } = await newOrg();
    const res = await post(`/api/orgs/${org.id}/members`, { email: "nope", role: "KING" }, { token: owner.token });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details.fieldErrors).sort()).toEqual(["email", "role"]);
  });

  it("POST /api/orgs/:idOrSlug/members by an ADMIN is 403", async () => {
    const { owner, org } = await newOrg();
    const admin = await joined(org.id, owner.token, "ADMIN");
    const res = await post(`/api/orgs/${org.id}/members`, { email: (await newUser()).email }, { token: admin.token });
    expect(res.status).toBe(403);
  });
});

describe("PATCH /api/orgs/:idOrSlug/members/:userId", () => {
  it("PATCH /api/orgs/:idOrSlug/members/:userId changes a member's role", async () => {
    const { owner, org } = await newOrg();
    const user = await joined(org.id, owner.token, "MEMBER");
    const userId = user.sub;
    const res = await patch(`/api/orgs/${org.id}/members/${userId}`, { role: "ADMIN" }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId, email: user.email, role: "ADMIN" });
    // The new role takes effect: an ADMIN may now PATCH the organization.
    expect((await patch(`/api/orgs/${org.id}`, { name: "Promoted" }, { token: user.token })).status).toBe(200);
  });

  it("PATCH /api/orgs/:idOrSlug/members/:userId cannot demote the last OWNER (409)", async () => {
    const { owner, org } = await newOrg();
    const ownerId = owner.sub;
    const res = await patch(`/api/orgs/${org.id}/members/${ownerId}`, { role: "ADMIN" }, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), status: 409 });
    const mine = await get("/api/orgs", { token: owner.token });
    expect(mine.body.data[0].role).toBe("OWNER");
  });

  it("PATCH /api/orgs/:idOrSlug/members/:userId can demote an OWNER when another OWNER remains", async () => {
    const { owner, org } = await newOrg();
    const second = await joined(org.id, owner.token, "OWNER");
    const res = await patch(`/api/orgs/${org.id}/members/${owner.sub}`, { role: "MEMBER" }, { token: second.token });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe("MEMBER");
    // And now `second` is the last owner.
    const again = await patch(`/api/orgs/${org.id}/members/${second.sub}`, { role: "ADMIN" }, { token: second.token });
    expect(again.status).toBe(409);
  });

  it("PATCH /api/orgs/:idOrSlug/members/:userId keeps one OWNER when two owners demote each other at once", async () => {
    const { owner, org } = await newOrg();
    const second = await joined(org.id, owner.token, "OWNER");
    const [a, b] = await Promise.all([
      patch(`/api/orgs/${org.id}/members/${second.sub}`, { role: "ADMIN" }, { token: owner.token }),
      patch(`/api/orgs/${org.id}/members/${owner.sub}`, { role: "ADMIN" }, { token: second.token }),
    ]);
    const statuses = [a.status, b.status].sort();
    // Either one demotion wins and the other finds its caller no longer an owner (403) or the last owner (409).
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const members = await get(`/api/orgs/${org.id}/members`, { token: owner.token });
    expect(members.body.data.filter((m: any) => m.role === "OWNER")).toHaveLength(1);
  });

  it("PATCH /api/orgs/:idOrSlug/members/:userId answers 404 for someone who is not a member", async () => {
    const { owner, org } = await newOrg();
    const res = await patch(`/api/orgs/${org.id}/members/usr_nobody`, { role: "ADMIN" }, { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body.status).toBe(404);
  });

  it("PATCH /api/orgs/:idOrSlug/members/:userId by an ADMIN is 403", async () => {
    const { owner, org } = await newOrg();
    const admin = await joined(org.id, owner.token, "ADMIN");
    const member = await joined(org.id, owner.token, "MEMBER");
    const res = await patch(`/api/orgs/${org.id}/members/${member.sub}`, { role: "ADMIN" }, { token: admin.token });
    expect(res.status).toBe(403);
  });
});

describe("DELETE /api/orgs/:idOrSlug/members/:userId", () => {
  it("DELETE /api/orgs/:idOrSlug/members/:userId by the OWNER removes a member (204)", async () => {
    const { owner, org } = await newOrg();
    const user = await joined(org.id, owner.token, "ADMIN");
    const res = await del(`/api/orgs/${org.id}/members/${user.sub}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await get(`/api/orgs/${org.id}`, { token: user.token })).status).toBe(403);
    const members = await get(`/api/orgs/${org.id}/members`, { token: owner.token });
    expect(members.body.data.map((m: any) => m.userId)).toEqual([owner.sub]);
  });

  it("DELETE /api/orgs/:idOrSlug/members/:userId lets a member remove themselves (204)", async () => {
    const { owner, org } = await newOrg();
    const user = await joined(org.id, owner.token, "MEMBER");
    const res = await del(`/api/orgs/${org.id}/members/${user.sub}`, { token: user.token });
    expect(res.status).toBe(204);
    expect((await get("/api/orgs", { token: user.token })).body.data).toEqual([]);
  });

  it("DELETE /api/orgs/:idOrSlug/members/:userId cannot remove the last OWNER (409)", async () => {
    const { owner, org } = await newOrg();
    const res = await del(`/api/orgs/${org.id}/members/${owner.sub}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), status: 409 });
    expect((await get(`/api/orgs/${org.id}`, { token: owner.token })).status).toBe(200);
  });

  it("DELETE /api/orgs/:idOrSlug/members/:userId by a non-owner removing someone else is 403", async () => {
    const { owner, org } = await newOrg();
    const admin = await joined(org.id, owner.token, "ADMIN");
    const member = await joined(org.id, owner.token, "MEMBER");
    const byAdmin = await del(`/api/orgs/${org.id}/members/${member.sub}`, { token: admin.token });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toEqual({ error: "Forbidden", status: 403 });
    const byMember = await del(`/api/orgs/${org.id}/members/${admin.sub}`, { token: member.token });
    expect(byMember.status).toBe(403);
    const byMemberOnOwner = await del(`/api/orgs/${org.id}/members/${owner.sub}`, { token: member.token });
    expect(byMemberOnOwner.status).toBe(403);
    expect((await get(`/api/orgs/${org.id}/members`, { token: owner.token })).body.data).toHaveLength(3);
  });

  it("DELETE /api/orgs/:idOrSlug/members/:userId answers 404 for someone who is not a member", async () => {
    const { owner, org } = await newOrg();
    const res = await del(`/api/orgs/${org.id}/members/usr_nobody`, { token: owner.token });
    expect(res.status).toBe(404);
  });
});
