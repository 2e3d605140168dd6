import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { issueSessionToken } from "@/lib/services/sessions/session-token";
import { call, del, get, newCampaign, newOrg, newUser, patch, post, uniqueSlug } from "../helpers/api";
import { testDb } from "../helpers/db";
import { startInsideWindow } from "../helpers/rate-window";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectError(res: { status: number; body: any; headers: Headers }, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error, status });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("x-request-id")).toBeTruthy();
}

describe("unknown /api routes", () => {
  it.each([
    ["GET", "/api/nope"],
    ["POST", "/api/nope/deeper/still"],
    ["DELETE", "/api/orgs/some-org/nothing-here"],
    ["PATCH", "/api/campaigns/cmp_x/unknown"],
  ])("%s %s answers a JSON 404 Not found with X-Request-Id", async (method, path) => {
    const res = await call(method, path, { body: method === "GET" || method === "DELETE" ? undefined : {} });
    expectError(res, 404, "Not found");
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("wrong methods", () => {
  it("PUT /api/orgs answers 405 Method not allowed with Allow: GET, POST", async () => {
    const user = await newUser();
    const res = await call("PUT", "/api/orgs", { token: user.token, body: { name: "x" } });
    expectError(res, 405, "Method not allowed");
    expect(res.headers.get("allow")).toBe("GET, POST");
  });

  it.each([
    ["DELETE", "/api/orgs", "GET, POST"],
    ["POST", "/api/orgs/some-org", "GET, PATCH"],
    ["PUT", "/api/orgs/some-org/members", "GET, POST"],
    ["GET", "/api/orgs/some-org/members/usr_x", "PATCH, DELETE"],
    ["PATCH", "/api/orgs/some-org/campaigns", "GET, POST"],
    ["POST", "/api/campaigns/cmp_x", "GET, PATCH, DELETE"],
    ["POST", "/api/public/campaigns/cmp_x", "GET"],
    ["DELETE", "/api/public/orgs/o/campaigns/c", "GET"],
  ])("%s %s answers 405 with Allow: %s", async (method, path, allow) => {
    const res = await call(method, path);
    expectError(res, 405, "Method not allowed");
    expect(res.headers.get("allow")).toBe(allow);
  });
});

describe("request bodies", () => {
  it("POST /api/orgs without a JSON Content-Type answers 415", async () => {
    const user = await newUser();
    const json = JSON.stringify({ name: "Plain", slug: uniqueSlug() });
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"]) {
      const res = await call("POST", "/api/orgs", { token: user.token, rawBody: json, headers: { "content-type": contentType } });
      expect(res.status, contentType).toBe(415);
      expect(res.body).toEqual({ error: expect.any(String), status: 415 });
    }
    // No Content-Type header at all.
    const bare = await call("POST", "/api/orgs", { token: user.token, rawBody: new TextEncoder().encode(json) });
    expect(bare.status).toBe(415);
    expect((await get("/api/orgs", { token: user.token })).body.data).toEqual([]);
  });

  it("PATCH /api/campaigns/:id without a JSON Content-Type answers 415", async () => {
    const { owner, org } = await newOrg();
    const c = await newCampaign(org, owner.token);
    const res = await call("PATCH", `/api/campaigns/${c.id}`, {
      token: owner.token,
      rawBody: JSON.stringify({ title: "x" }),
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
  });

  it("POST /api/orgs accepts application/json with a charset and +json types", async () => {
    const user = await newUser();
    for (const contentType of ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"]) {
      const res = await call("POST", "/api/orgs", {
        token: user.token,
        rawBody: JSON.stringify({ name: "Typed", slug: uniqueSlug() }),
        headers: { "content-type": contentType },
      });
      expect(res.status, contentType).toBe(201);
    }
  });

  it("POST /api/orgs with a body over 1 MiB answers 413", async () => {
    const user = await newUser();
    const big = JSON.stringify({ name: "Big", slug: uniqueSlug(), legalName: "x".repeat(1024 * 1024) });
    const res = await call("POST", "/api/orgs", { token: user.token, rawBody: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: expect.any(String), status: 413 });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("POST /api/orgs with a declared Content-Length over 1 MiB answers 413", async () => {
    const user = await newUser();
    const res = await call("POST", "/api/orgs", {
      token: user.token,
      rawBody: JSON.stringify({ name: "Liar" }),
      headers: { "content-type": "application/json", "content-length": String(1024 * 1024 + 1) },
    });
    expect(res.status).toBe(413);
    expect(res.body.status).toBe(413);
  });

  it("POST /api/orgs with a body of exactly 1 MiB is read (not 413)", async () => {
    const user = await newUser();
    const prefix = '{"name":"';
    const suffix = '"}';
    const exact = prefix + "x".repeat(1024 * 1024 - prefix.length - suffix.length) + suffix;
    expect(Buffer.byteLength(exact)).toBe(1024 * 1024);
    const res = await call("POST", "/api/orgs", { token: user.token, rawBody: exact, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Validation failed");
    expect(res.body.details.fieldErrors.name).toEqual([expect.any(String)]);
  });

  it.each([
    ["truncated JSON", '{"name": "x"'],
    ["single quotes", "{'name': 'x'}"],
    ["trailing comma", '{"name": "x",}'],
    ["bare word", "hello"],
    ["empty body", ""],
    ["whitespace only", "  \n "],
    ["two documents", '{"name":"a"}{"name":"b"}'],
  ])("POST /api/orgs with unparseable JSON (%s) answers 400 Invalid JSON body", async (_label, raw) => {
    const user = await newUser();
    const res = await call("POST", "/api/orgs", { token: user.token, rawBody: raw, headers: { "content-type": "application/json" } });
    expectError(res, 400, "Invalid JSON body");
  });

  it("POST /api/orgs with invalid UTF-8 bytes answers 400 Invalid JSON body", async () => {
    const user = await newUser();
    const bytes = new Uint8Array([...Buffer.from('{"name":"'), 0xff, 0xfe, 0xc3, 0x28, ...Buffer.from('","slug":"x-y-z"}')]);
    const res = await call("POST", "/api/orgs", { token: user.token, rawBody: bytes, headers: { "content-type": "application/json" } });
    expectError(res, 400, "Invalid JSON body");
  });

  it("PATCH /api/orgs/:idOrSlug with unparseable JSON answers 400 Invalid JSON body", async () => {
    const { owner, org } = await newOrg();
    const res = await call("PATCH", `/api/orgs/${org.id}`, {
      token: owner.token,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expectError(res, 400, "Invalid JSON body");
  });
});

describe("X-Request-Id", () => {
  it("every response carries X-Request-Id (2xx, 4xx, 405, catch-all, public)", async () => {
    const user = await newUser();
    const responses = [
      await get("/api/orgs", { token: user.token }),
      await post("/api/orgs", { name: "Req", slug: uniqueSlug() }, { token: user.token }),
      await post("/api/orgs", { name: "" }, { token: user.token }),
      await get("/api/orgs"),
      await get("/api/orgs/no-such-org-anywhere", { token: user.token }),
      await call("PUT", "/api/orgs"),
      await get("/api/unknown"),
      await get("/api/public/campaigns/cmp_nothing"),
      await del("/api/campaigns/cmp_nothing", { token: user.token }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 201, 400, 401, 404, 405, 404, 404, 404]);
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("echoes a well-formed incoming X-Request-Id", async () => {
    const user = await newUser();
    const incoming = `req-${randomBytes(4).toString("hex")}.a:b_C`;
    for (const res of [
      await get("/api/orgs", { token: user.token, headers: { "x-request-id": incoming } }),
      await get("/api/orgs", { headers: { "x-request-id": incoming } }),
      await call("PUT", "/api/orgs", { headers: { "x-request-id": incoming } }),
      await get("/api/nowhere", { headers: { "x-request-id": incoming } }),
      await post("/api/orgs", { name: "" }, { token: user.token, headers: { "x-request-id": incoming } }),
    ]) {
      expect(res.headers.get("x-request-id")).toBe(incoming);
    }
  });

  it("replaces a malformed incoming X-Request-Id with a fresh one", async () => {
    for (const bad of ["has spaces in it", "x".repeat(129), "<script>", "a/b", "semi;colon", 'quote"d']) {
      const res = await get("/api/nowhere", { headers: { "x-request-id": bad } });
      expect(res.headers.get("x-request-id")).toMatch(UUID);
    }
  });
});

describe("authentication", () => {
  const claims = () => {
    const id = randomBytes(6).toString("hex");
    return { sub: `usr_auth${id}`, email: `auth-${id}@example.org`, name: "Auth" };
  };

  it("GET /api/orgs without a token answers 401 Unauthorized", async () => {
    expectError(await get("/api/orgs"), 401, "Unauthorized");
  });

  it("GET /api/orgs with an expired token answers 401 Unauthorized", async () => {
    const token = await issueSessionToken(claims(), -60);
    expectError(await get("/api/orgs", { token }), 401, "Unauthorized");
  });

  it("GET /api/orgs with a tampered token answers 401 Unauthorized", async () => {
    const token = await issueSessionToken(claims());
    expect((await get("/api/orgs", { token })).status).toBe(200);
    const parts = token.split(".");
    // Flip one character inside each part in turn (header, IV, ciphertext, tag; part 1 is empty for `dir`).
    for (const i of [0, 2, 3, 4]) {
      const p = parts[i];
      const at = Math.floor(p.length / 2);
      const flipped = [...parts];
      flipped[i] = p.slice(0, at) + (p[at] === "A" ? "B" : "A") + p.slice(at + 1);
      const res = await get("/api/orgs", { token: flipped.join(".") });
      expect(res.status, `part ${i}`).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
  });

  it("GET /api/orgs with a token sealed with another secret answers 401 Unauthorized", async () => {
    const token = await encode({ token: { ...claims() }, secret: "some-other-secret-that-is-not-ours-0123456789" });
    expectError(await get("/api/orgs", { token }), 401, "Unauthorized");
  });

  it.each([
    ["garbage", "garbage"],
    ["an unsigned JWT", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."],
    ["five empty parts", "...."],
  ])("GET /api/orgs with %s as the token answers 401 Unauthorized", async (_label, token) => {
    expectError(await get("/api/orgs", { token }), 401, "Unauthorized");
  });

  it("GET /api/orgs with a non-Bearer Authorization header answers 401 Unauthorized", async () => {
    const token = await issueSessionToken(claims());
    for (const authorization of [`Basic ${Buffer.from("a:b").toString("base64")}`, token, "Bearer"]) {
      expectError(await get("/api/orgs", { headers: { authorization } }), 401, "Unauthorized");
    }
  });

  it("a token for an unknown sub provisions the user (GET /api/orgs → 200 with empty data)", async () => {
    const c = claims();
    const db = await testDb();
    expect(await db.select().from(users).where(eq(users.id, c.sub))).toEqual([]);
    const token = await issueSessionToken(c);
    const res = await get("/api/orgs", { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const [row] = await db.select().from(users).where(eq(users.id, c.sub));
    expect(row).toMatchObject({ id: c.sub, email: c.email, name: c.name });
    // A second request reuses the same user.
    expect((await get("/api/orgs", { token })).status).toBe(200);
    expect(await db.select().from(users).where(eq(users.id, c.sub))).toHaveLength(1);
  });

  it("a provisioned user can create and then see an organization", async () => {
    const token = await issueSessionToken(claims());
    const created = await post("/api/orgs", { name: "Mine", slug: uniqueSlug() }, { token });
    expect(created.status).toBe(201);
    const list = await get("/api/orgs", { token });
    expect(list.body.data.map((o: any) => o.id)).toEqual([created.body.id]);
  });
});

describe("rate-limit headers", () => {
  it("authenticated responses carry X-RateLimit-* for the per-user limit, errors included", async () => {
    const user = await newUser();
    await startInsideWindow(5_000);
    const ok = await get("/api/orgs", { token: user.token });
    const notFound = await get("/api/orgs/no-such-org-xyz", { token: user.token });
    const invalid = await patch("/api/campaigns/cmp_missing", { title: "" }, { token: user.token });
    for (const res of [ok, notFound, invalid]) {
      expect(res.headers.get("x-ratelimit-limit")).toBe("600");
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    expect(Number(notFound.headers.get("x-ratelimit-remaining"))).toBe(Number(ok.headers.get("x-ratelimit-remaining")) - 1);
  });

  it("public and unauthenticated responses carry X-RateLimit-* for the per-IP limit", async () => {
    const ip = `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    await startInsideWindow(2_000);
    const first = await get("/api/public/campaigns/cmp_none", { ip });
    const second = await get("/api/orgs", { ip });
    expect(first.headers.get("x-ratelimit-limit")).toBe("100");
    expect(second.status).toBe(401);
    expect(second.headers.get("x-ratelimit-limit")).toBe("100");
    expect(Number(second.headers.get("x-ratelimit-remaining"))).toBe(Number(first.headers.get("x-ratelimit-remaining")) - 1);
  });
});
