/**
 * The routes the server serves itself (server/fast-path.ts, the table server/routes.generated.ts
 * derives from `fastPath: true`), behind the server's overload guard as server/main.ts puts them:
 * over a real socket, the answers the route handlers give through Next.js (tests/helpers/api.ts
 * calls them as Next.js does), and everything they do not take left to Next.js (here a stand-in
 * answering 299, so the test sees which way a request went).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { donations, organizations } from "@/db/schema";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { getEnv, resetEnv } from "@/lib/env";
import { clearHostCache } from "@/lib/hosted-urls/custom-domains";
import { fastPath, type FastPath } from "@/server/fast-path";
import { createOverloadGuard } from "@/server/overload";
import { SERVER_STREAM_OPTIONS } from "@/server/request-body";
import type { RouteHandler } from "@/lib/api/route";
import { API_ROUTE_CLASSES, API_ROUTE_PATHS, FAST_ROUTES } from "@/server/routes.generated";
import { deliver, givingSetup, paymentSucceededEvent, pendingDonation, signedDelivery, WEBHOOK_PATH } from "../fixtures/processor";
import { get, post } from "../helpers/api";
import { testDb } from "../helpers/db";

const FELL_THROUGH = 299;

type Sent = { status: number; headers: http.IncomingHttpHeaders; text: string; json: () => any };
type Send = {
  method?: string;
  path: string;
  host?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sent without a Content-Length (chunked), in these pieces. */
  chunks?: Buffer[];
};

function serverOf(fast: FastPath) {
  /** What each request answered directly returned: settled once it is done with the request. */
  const served: Promise<void>[] = [];
  const { guard } = createOverloadGuard({ env: { LOG_LEVEL: "silent" }, routeClasses: API_ROUTE_CLASSES });
  const server = http.createServer(SERVER_STREAM_OPTIONS, (req, res) => {
    void guard(req, res, () => {
      const answering = fast(req, res);
      if (answering) return void served.push(answering);
      req.resume();
      res.writeHead(FELL_THROUGH, { "content-type": "text/plain" }).end("left to Next.js");
    });
  });
  let port = 0;
  const send = (o: Send): Promise<Sent> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { host: o.host ?? `127.0.0.1:${port}`, ...o.headers };
      if (o.body !== undefined) headers["content-length"] = Buffer.byteLength(o.body);
      const req = http.request({ port, path: o.path, method: o.method ?? "POST", headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }));
      });
      req.on("error", reject);
      if (o.chunks) for (const c of o.chunks) req.write(c);
      req.end(o.body);
    });
  return {
    send,
    served,
    port: () => port,
    start: () =>
      new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => ((port = (server.address() as AddressInfo).port), resolve()))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers that say how an answer travelled, not what it is (Next.js streams and adds its own Vary). */
const TRANSPORT = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "vary", "x-request-id"]);
/** An answer's headers but those and the rate limit's counts (each call takes one). */
const sameAnswer = (headers: Iterable<[string, string]>) =>
  Object.fromEntries(
    [...headers]
      .map(([k, v]) => [k.toLowerCase(), v])
      .filter(([k]) => !TRANSPORT.has(k) && !k.startsWith("x-ratelimit-"))
      .sort(([a], [b]) => a.localeCompare(b)),
  );

describe("fast routes", () => {
  const app = serverOf(fastPath(FAST_ROUTES, API_ROUTE_PATHS));
  beforeAll(app.start);
  afterAll(app.stop);

  it("settles a payment as the webhook route does through Next.js, once", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id);
    const delivery = signedDelivery(paymentSucceededEvent(d));
    const res = await app.send({ path: WEBHOOK_PATH, headers: delivery.headers, body: delivery.rawBody });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(res.text));
    expect(res.headers["x-request-id"]).toMatch(/^[\w.:-]+$/);
    const [row] = await (await testDb()).select().from(donations).where(eq(donations.id, d.id));
    expect(row.status).toBe("SUCCEEDED");

    // The same delivery again, straight and through Next.js's way: a duplicate both times, the same answer.
    const again = await app.send({ path: WEBHOOK_PATH, headers: delivery.headers, body: delivery.rawBody });
    const viaNext = await deliver(delivery);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(again.text).toBe(viaNext.text);
    expect(again.status).toBe(viaNext.status);
    expect(sameAnswer(Object.entries(again.headers) as [string, string][])).toEqual(sameAnswer(viaNext.headers));
  });

  it("answers a bad signature, a bad body and an unknown campaign in the contract's shape, as through Next.js", async () => {
    const forged = signedDelivery(paymentSucceededEvent({ id: "don_x", paymentIntentId: "pi_x", amount: 100 } as never), {
      secret: "whsec_other",
    });
    const cases: [string, Send, () => ReturnType<typeof deliver>][] = [
      ["forged", { path: WEBHOOK_PATH, headers: forged.headers, body: forged.rawBody }, () => deliver(forged)],
      [
        "not JSON",
        { path: "/api/donations", headers: { "content-type": "application/json" }, body: "{nope" },
        () => post("/api/donations", undefined, { rawBody: "{nope", headers: { "content-type": "application/json" }, ip: null }),
      ],
      [
        "unknown campaign",
        {
          path: "/api/donations",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ campaignId: "cmp_none", amount: 5000, email: "a@example.org" }),
        },
        () => post("/api/donations", { campaignId: "cmp_none", amount: 5000, email: "a@example.org" }, { ip: null }),
      ],
    ];
    for (const [name, direct, viaNext] of cases) {
      const [a, b] = [await app.send(direct), await viaNext()];
      expect(a.status, name).toBeGreaterThanOrEqual(400);
      expect(a.status, name).toBe(b.status);
      expect(a.json(), name).toEqual(b.body);
      expect(a.json(), name).toMatchObject({ error: expect.any(String), status: a.status });
      expect(sameAnswer(Object.entries(a.headers) as [string, string][]), name).toEqual(sameAnswer(b.headers));
    }
  });

  it("starts a donation", async () => {
    const s = await givingSetup();
    const email = `direct-${Date.now()}@example.org`;
    const res = await app.send({
      path: "/api/donations",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ campaignId: s.campaign.id, amount: 2500, email }),
    });
    expect(res.status).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ campaignId: s.campaign.id, amount: 2500, email, status: "PENDING", clientSecret: expect.any(String) });
    const [row] = await (await testDb()).select().from(donations).where(eq(donations.id, body.id));
    expect(row).toMatchObject({ status: "PENDING", amount: 2500, email });
  });

  it("serves the public view by its path's parameters, as through Next.js", async () => {
    const s = await givingSetup();
    const bySlug = `/api/public/orgs/${s.org.slug}/campaigns/${s.campaign.slug}`;
    const byId = `/api/public/campaigns/${s.campaign.id}`;
    for (const path of [bySlug, byId, `${byId}?utm_source=share`]) {
      const [a, b] = [await app.send({ method: "GET", path }), await get(path)];
      expect(a.status, path).toBe(200);
      expect(a.json(), path).toEqual(b.body);
      expect(a.json().campaign, path).toMatchObject({ id: s.campaign.id, slug: s.campaign.slug });
      expect(sameAnswer(Object.entries(a.headers) as [string, string][]), path).toEqual(sameAnswer(b.headers));
    }
    // Parameters are decoded as Next.js decodes them before the route's own checks: an unknown
    // campaign is the same 404 either way.
    for (const path of [`/api/public/orgs/${s.org.slug}/campaigns/no%2Dsuch`, "/api/public/campaigns/cmp_none"]) {
      const [a, b] = [await app.send({ method: "GET", path }), await get(path.replace("%2D", "-"))];
      expect(a.status, path).toBe(404);
      expect(a.json(), path).toEqual(b.body);
    }
  });

  it("takes a path with parameters only when Next.js would route it there, and leaves the rest", async () => {
    const echo: RouteHandler = async (_req, ctx) => Response.json(await ctx.params);
    const routes = [
      { route: "/api/things/special", pattern: /^\/api\/things\/special\/?$/ },
      { route: "/api/things/[id]", pattern: /^\/api\/things\/[^/]+\/?$/ },
      { route: "/api/things/[id]/parts/[part]", pattern: /^\/api\/things\/[^/]+\/parts\/[^/]+\/?$/ },
    ];
    const echoing = serverOf(fastPath({ "/api/things/[id]": { GET: echo }, "/api/things/[id]/parts/[part]": { GET: echo } }, routes));
    await echoing.start();
    try {
      const answers: [string, number, unknown?][] = [
        ["/api/things/t1", 200, { id: "t1" }],
        ["/api/things/a%20b?x=1", 200, { id: "a b" }],
        ["/api/things/t1/parts/p%2F2", 200, { id: "t1", part: "p/2" }],
        // The fixed route beside it is its own, a trailing slash is Next.js's redirect, bad
        // percent-encoding Next.js's 400, another method the route module's 405.
        ["/api/things/special", FELL_THROUGH],
        ["/api/things/t1/", FELL_THROUGH],
        ["/api/things/%E0%A4%A", FELL_THROUGH],
        ["/api/things", FELL_THROUGH],
        ["/api/things/t1/parts", FELL_THROUGH],
      ];
      for (const [path, status, body] of answers) {
        const res = await echoing.send({ method: "GET", path });
        expect(res.status, path).toBe(status);
        if (body) expect(res.json(), path).toEqual(body);
      }
      expect((await echoing.send({ method: "POST", path: "/api/things/t1", body: "{}" })).status).toBe(FELL_THROUGH);
    } finally {
      await echoing.stop();
    }
    // A table the server could not route as Next.js does is refused when the server starts.
    expect(() => fastPath({ "/api/things/[...rest]": { GET: echo } }, routes)).toThrow(/catch-all/);
    expect(() => fastPath({ "/api/other/[id]": { GET: echo } }, routes)).toThrow(/among the API routes/);
  });

  it("leaves to Next.js every other path and method", async () => {
    const json = { "content-type": "application/json" };
    const cases: Send[] = [
      { method: "GET", path: WEBHOOK_PATH },
      { method: "PUT", path: "/api/donations", headers: json, body: "{}" },
      { path: `${WEBHOOK_PATH}/`, body: "{}" },
      { path: "/api//donations", headers: json, body: "{}" },
      { path: "/api/donations/don_x", headers: json, body: "{}" },
    ];
    for (const c of cases) expect((await app.send(c)).status, `${c.method ?? "POST"} ${c.path}`).toBe(FELL_THROUGH);
  });

  it("answers on every host what the route's host step allows: the app's, an IP, a domain that is nobody's; not an organization's for the webhook", async () => {
    const appHost = new URL(getEnv().appUrl).host;
    for (const host of [appHost, "127.0.0.1", "[::1]:3000", "localhost:3000", "give.example.org", "GIVE.example.org.:443"]) {
      const res = await app.send({ path: `${WEBHOOK_PATH}?from=test`, host, body: "{}" });
      expect(res.status, host).toBe(400);
      expect(res.json(), host).toEqual({ error: "Invalid signature", status: 400 });
    }
    // An organization's verified custom domain serves only the public API its pages call.
    const s = await givingSetup();
    const domain = `give-${Date.now()}.example.org`;
    await (
      await testDb()
    )
      .update(organizations)
      .set({ customDomain: domain, customDomainStatus: "VERIFIED" })
      .where(eq(organizations.id, s.org.id));
    clearHostCache();
    const refused = await app.send({ path: WEBHOOK_PATH, host: domain, body: "{}" });
    expect(refused.status).toBe(404);
    expect(refused.json()).toEqual({ error: "Not found", status: 404 });
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
    const gift = await app.send({
      path: "/api/donations",
      host: domain,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ campaignId: s.campaign.id, amount: 2500, email: `host-${Date.now()}@example.org` }),
    });
    expect(gift.status, gift.text).toBe(201);
  });

  it("refuses a body declared over 1 MiB before reading it", async () => {
    const res = await app.send({
      path: "/api/donations",
      headers: { "content-type": "application/json" },
      body: Buffer.alloc(MAX_BODY_BYTES + 1, "a"),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ error: "Request body too large (limit 1 MiB)", status: 413 });
  });

  it("refuses a body over 1 MiB sent without a length, and keeps serving", async () => {
    const piece = Buffer.alloc(64 * 1024, "a");
    const chunks = Array.from({ length: MAX_BODY_BYTES / piece.length + 2 }, () => piece);
    const res = await app.send({ path: "/api/donations", headers: { "content-type": "application/json" }, chunks });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ error: "Request body too large (limit 1 MiB)", status: 413 });
    const next = await app.send({ path: WEBHOOK_PATH, body: "{}" });
    expect(next.status).toBe(400);
  });

  it("lets go of a request whose client hangs up before its body is sent, and keeps serving", async () => {
    const before = app.served.length;
    const logged: string[] = [];
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "warn";
    resetEnv();
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (logged.push(String(chunk)), write(chunk, ...rest))) as never;
    try {
      await new Promise<void>((resolve) => {
        const req = http.request({ port: app.port(), path: WEBHOOK_PATH, method: "POST", headers: { "content-length": "1000" } });
        req.on("error", () => resolve());
        req.write("{", () => setTimeout(() => (req.destroy(), resolve()), 50));
      });
      // Nothing reaches the route (its body never came), with nothing to answer and nothing to report.
      await new Promise((r) => setTimeout(r, 50));
      expect(app.served.length).toBe(before);
    } finally {
      process.stderr.write = write;
      process.env.LOG_LEVEL = level;
      resetEnv();
    }
    expect(logged.filter((l) => l.includes('"error"'))).toEqual([]);
    const res = await app.send({ path: WEBHOOK_PATH, body: "{}" });
    expect(res.status).toBe(400);
  });

  it("answers a failure around a handler with a 500 in the contract's shape", async () => {
    const failing = serverOf(
      fastPath(
        {
          "/api/boom": {
            POST: async () => new Response(new ReadableStream({ pull: (c) => c.error(new Error("stream broke")) })),
          },
        },
        [],
      ),
    );
    await failing.start();
    try {
      const res = await failing.send({ path: "/api/boom", body: "{}" });
      expect(res.status).toBe(500);
      expect(res.json()).toEqual({ error: "Internal server error", status: 500 });
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    } finally {
      await failing.stop();
    }
  });
});
