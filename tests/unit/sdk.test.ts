import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { committedSdkFiles, generateSdkFiles } from "@/scripts/generate-sdk-types";
import { backoffMs, createClient, paginate, retryAfterMs, type FetchLike } from "@/sdk/typescript/src";

const ROOT = path.resolve(__dirname, "../..");
const SDK = path.join(ROOT, "sdk/typescript");

describe("SDKs: generated files", () => {
  it("sdk/typescript/openapi.json, src/schema.ts and the Python SDK's models.py and _operations.py are what `npm run sdk:generate` writes from the app's routes", async () => {
    const [fresh, committed] = await Promise.all([generateSdkFiles(), committedSdkFiles()]);
    const stale = "is stale: run `npm run sdk:generate` and commit the result";
    expect(committed.document === fresh.document, `sdk/typescript/openapi.json ${stale}`).toBe(true);
    expect(committed.schema === fresh.schema, `sdk/typescript/src/schema.ts ${stale}`).toBe(true);
    expect(committed.pythonModels === fresh.pythonModels, `sdk/python/goodfund/models.py ${stale}`).toBe(true);
    expect(committed.pythonOperations === fresh.pythonOperations, `sdk/python/goodfund/_operations.py ${stale}`).toBe(true);
  }, 60_000);
});

describe("TypeScript SDK: build", () => {
  it("`npm run sdk:build` writes an ES module with its declarations to sdk/typescript/dist", async () => {
    rmSync(path.join(SDK, "dist"), { recursive: true, force: true });
    execFileSync("npm", ["run", "--silent", "sdk:build"], { cwd: ROOT, stdio: "pipe" });
    for (const file of ["index.js", "index.d.ts", "schema.d.ts", "client.d.ts"])
      expect(existsSync(path.join(SDK, "dist", file)), file).toBe(true);
    const pkg = JSON.parse(readFileSync(path.join(SDK, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: "@goodfund/sdk", version: "0.1.0", type: "module", types: "./dist/index.d.ts" });
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["openapi-fetch", "standardwebhooks"]);
    // Node loads the built module as a package's consumer would (ESM, its dependencies by name).
    const built = await import(/* @vite-ignore */ pathToFileURL(path.join(SDK, pkg.exports["."].import)).href);
    for (const name of ["createClient", "paginate", "verifyWebhook", "WebhookVerificationError", "GoodfundApiError"]) {
      expect(built[name], name).toBeTypeOf("function");
    }
    expect(readFileSync(path.join(SDK, "dist/index.d.ts"), "utf8")).toContain("createClient");
  }, 60_000);
});

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; at: number };

/** A stand-in API that answers from a script of responses, recording what it was sent. */
function stubServer() {
  const seen: Seen[] = [];
  let script: ((req: Seen) => { status: number; headers?: Record<string, string>; body?: unknown }) | undefined;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() };
      seen.push(entry);
      const out = script!(entry);
      res.writeHead(out.status, { "content-type": "application/json", ...out.headers });
      res.end(JSON.stringify(out.body ?? {}));
    });
  });
  return {
    seen,
    server,
    answer(fn: typeof script) {
      seen.length = 0;
      script = fn;
    },
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
}

describe("TypeScript SDK: retries (against a stand-in server)", () => {
  const stub = stubServer();
  beforeAll(() => new Promise<void>((resolve) => stub.server.listen(0, "127.0.0.1", resolve)));
  afterAll(() => new Promise<void>((resolve) => stub.server.close(() => resolve())));

  it("waits the 429's Retry-After, then resends the POST with the same Idempotency-Key and Authorization", async () => {
    stub.answer(({ method }) =>
      stub.seen.length === 1
        ? { status: 429, headers: { "retry-after": "1" }, body: { error: "Too many requests", status: 429 } }
        : { status: 201, body: { id: "org_1", method } },
    );
    const gf = createClient({ baseUrl: stub.url(), apiKey: "gf_test_abc", retries: { baseDelayMs: 1, maxDelayMs: 5 } });
    const { data, response } = await gf.POST("/api/orgs", { body: { name: "Retry Fund" } });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ id: "org_1" });
    expect(stub.seen).toHaveLength(2);
    const [first, second] = stub.seen;
    expect(second.at - first.at).toBeGreaterThanOrEqual(950);
    expect(first.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers["idempotency-key"]).toBe(first.headers["idempotency-key"]);
    expect(second.headers.authorization).toBe("Bearer gf_test_abc");
    expect(JSON.parse(second.body)).toEqual({ name: "Retry Fund" });
  });

  it("gives each POST call its own Idempotency-Key, keeps one the caller sets, and sends none on GET", async () => {
    stub.answer(() => ({ status: 201, body: {} }));
    const gf = createClient({ baseUrl: stub.url(), apiKey: "k" });
    await gf.POST("/api/orgs", { body: { name: "A" } });
    await gf.POST("/api/orgs", { body: { name: "B" } });
    await gf.POST("/api/orgs", { body: { name: "C" }, headers: { "Idempotency-Key": "mine-1" } });
    await gf.GET("/api/orgs");
    const keys = stub.seen.map((s) => s.headers["idempotency-key"]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(["mine-1", undefined]);
  });

  it("stops after maxAttempts and returns the last 503; backs off between attempts", async () => {
    stub.answer(() => ({ status: 503, body: { error: "Service unavailable", status: 503 } }));
    const gf = createClient({ baseUrl: stub.url(), retries: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 40 } });
    const { error, response } = await gf.GET("/api/orgs");
    expect(response.status).toBe(503);
    expect(error).toEqual({ error: "Service unavailable", status: 503 });
    expect(stub.seen).toHaveLength(4);
    const gaps = stub.seen.slice(1).map((s, i) => s.at - stub.seen[i].at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(9);
  });

  it("does not wait for a Retry-After longer than maxRetryAfterMs: the 429 is the answer", async () => {
    stub.answer(() => ({ status: 429, headers: { "retry-after": "3600" }, body: { error: "Too many requests", status: 429 } }));
    const gf = createClient({ baseUrl: stub.url() });
    const started = Date.now();
    const { response } = await gf.GET("/api/orgs");
    expect(response.status).toBe(429);
    expect(stub.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("does not retry other errors (400, 404, 409)", async () => {
    for (const status of [400, 404, 409]) {
      stub.answer(() => ({ status, body: { error: "No", status } }));
      const gf = createClient({ baseUrl: stub.url(), retries: { baseDelayMs: 1 } });
      expect((await gf.POST("/api/orgs", { body: { name: "A" } })).response.status).toBe(status);
      expect(stub.seen).toHaveLength(1);
    }
  });

  it("asks again while the server says the same Idempotency-Key is still in progress (409), then gets the answer", async () => {
    stub.answer(() =>
      stub.seen.length < 3
        ? { status: 409, body: { error: "A request with this idempotency key is in progress", status: 409 } }
        : { status: 201, body: { id: "org_2" } },
    );
    const gf = createClient({ baseUrl: stub.url(), retries: { baseDelayMs: 1, maxDelayMs: 2 } });
    const { data } = await gf.POST("/api/orgs", { body: { name: "A" } });
    expect(data).toMatchObject({ id: "org_2" });
    expect(new Set(stub.seen.map((s) => s.headers["idempotency-key"])).size).toBe(1);
    expect(stub.seen).toHaveLength(3);
  });

  it("retries network errors of GET and POST, but not of a PATCH (it has no Idempotency-Key)", async () => {
    stub.answer(() => ({ status: 200, body: { data: [], pagination: { page: 1, limit: 0, total: 0, hasMore: false } } }));
    let failures = 0;
    const flaky: FetchLike = async (req) => {
      if (failures++ % 2 === 0) throw new TypeError("fetch failed");
      return fetch(req);
    };
    const gf = createClient({ baseUrl: stub.url(), fetch: flaky, retries: { baseDelayMs: 1, maxDelayMs: 2 } });
    expect((await gf.GET("/api/orgs")).response.status).toBe(200);
    expect((await gf.POST("/api/orgs", { body: { name: "A" } })).response.status).toBe(200);
    failures = 0;
    await expect(gf.PATCH("/api/orgs/{idOrSlug}", { params: { path: { idOrSlug: "a" } }, body: { name: "B" } })).rejects.toThrow(
      "fetch failed",
    );
    expect(stub.seen.map((s) => s.method)).toEqual(["GET", "POST"]);
  });

  it("reads Retry-After as seconds or an HTTP date; backoff doubles up to the cap, with jitter in its upper half", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs("soon")).toBeNull();
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, 100, 1000, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffMs(3, 100, 1000, () => 0)).toBe(200);
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("TypeScript SDK: paginate (unit)", () => {
  it("follows nextCursor until null and page numbers while hasMore, stopping on an empty page", async () => {
    const rows = Array.from({ length: 7 }, (_, i) => i);
    const cursorCalls: (string | undefined)[] = [];
    const byCursor = paginate(async ({ cursor }) => {
      cursorCalls.push(cursor);
      const start = cursor ? Number(cursor) : 0;
      const next = start + 3 < rows.length ? String(start + 3) : null;
      return { data: rows.slice(start, start + 3), pagination: { limit: 3, nextCursor: next } };
    });
    expect(await collect(byCursor)).toEqual(rows);
    expect(cursorCalls).toEqual([undefined, "3", "6"]);

    const pages: (number | undefined)[] = [];
    const byPage = paginate(async ({ page }) => {
      pages.push(page);
      const p = page ?? 1;
      return { data: rows.slice((p - 1) * 2, p * 2), pagination: { page: p, limit: 2, total: rows.length, hasMore: p * 2 < rows.length } };
    });
    expect(await collect(byPage)).toEqual(rows);
    expect(pages).toEqual([undefined, 2, 3, 4]);
  });

  it("throws the API's error of a failed page", async () => {
    const response = new Response(null, { status: 403, headers: { "x-request-id": "req_1" } });
    const it = paginate(async () => ({ error: { error: "Forbidden", status: 403 }, response }));
    await expect(it.next()).rejects.toMatchObject({
      name: "GoodfundApiError",
      status: 403,
      requestId: "req_1",
      message: "Forbidden (HTTP 403)",
    });
  });
});
