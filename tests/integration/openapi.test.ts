import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { API_ROUTES } from "@/app/api/api-routes";
import { ROUTES } from "@/app/api/route-manifest";
import type { RouteHandler } from "@/lib/api/route";
import { buildOpenApiDocument, openApiPath, routeDefinitions, type RouteManifestEntry } from "@/lib/api/openapi";
import { createCampaignBody } from "@/lib/schemas/campaigns";
import { get, newUser, post, randomIp, serverClientIpHeaders, uniqueSlug } from "../helpers/api";
import { testDb } from "../helpers/db";

type Json = Record<string, any>;
type RouteModule = Partial<Record<string, RouteHandler>>;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const ROOT = path.resolve(__dirname, "../..");
const API_DIR = path.join(ROOT, "app/api");
const modules = import.meta.glob<RouteModule>("/app/api/**/route.ts");

const doc = buildOpenApiDocument(API_ROUTES) as Json;
/** The documented operations, as their route files define them. */
const OPERATIONS = routeDefinitions(API_ROUTES).flatMap(({ path, method, definition }) =>
  definition.doc ? [{ path, method, ...definition, doc: definition.doc }] : [],
);
const operation = (operationId: string) => OPERATIONS.find((op) => op.doc.operationId === operationId)!;

/** Route files under app/api, as `orgs/[idOrSlug]/campaigns`; the catch-all and next-auth's routes are not API operations. */
function routeFiles(): string[] {
  return readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => f === "route.ts" || f.endsWith("/route.ts"))
    .map((f) => f.replace(/\/?route\.ts$/, ""))
    .filter((f) => !f.split("/").some((seg) => seg.startsWith("[...")) && f !== "auth" && !f.startsWith("auth/"))
    .sort();
}

/** Every route file, as `orgs/[idOrSlug]` ("" for app/api/route.ts), the catch-all and next-auth's included. */
function routeFilesIncludingInternal(): string[] {
  return readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => f === "route.ts" || f.endsWith("/route.ts"))
    .map((f) => f.replace(/\/?route\.ts$/, ""))
    .sort();
}

/**
 * The methods a route file really implements: every export is called with an anonymous request;
 * the 405 handler `methods()` puts on the others answers 405 `Method not allowed` straight away,
 * while a real handler never does (without a token it answers 401, or 400/404 when public).
 */
async function implementedMethods(file: string): Promise<string[]> {
  const load = modules[`/app/api/${file}/route.ts`];
  if (!load) throw new Error(`app/api/${file}/route.ts is not loadable`);
  const mod = await load();
  const params = Object.fromEntries([...file.matchAll(/\[([^\]]+)\]/g)].map((m) => [m[1], "openapi-probe"]));
  const found: string[] = [];
  const allowHeaders = new Set<string>();
  for (const method of METHODS) {
    const handler = mod[method];
    if (!handler) continue;
    const url = new URL(`/api/${file.replace(/\[([^\]]+)\]/g, "openapi-probe")}`, "http://localhost:3000");
    const req = new NextRequest(url, { method, headers: serverClientIpHeaders(randomIp()) });
    const res = await handler(req, { params: Promise.resolve(params) });
    const body = await res.json().catch(() => null);
    if (res.status === 405 && body?.error === "Method not allowed") allowHeaders.add(res.headers.get("allow") ?? "");
    else found.push(method);
  }
  // Every 405 names, in `Allow`, exactly the methods that did not answer 405.
  for (const allow of allowHeaders) expect(allow.split(", ").filter(Boolean), `Allow of ${file}`).toEqual(found);
  return found;
}

function resolvePointer(ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

/** The schema behind a `$ref` (or the schema itself). */
const deref = (schema: Json): Json => (schema.$ref ? (resolvePointer(schema.$ref) as Json) : schema);

/** The JSON types a property schema admits, through `anyOf` and `type` arrays. */
function typesOf(schema: Json): string[] {
  const s = deref(schema);
  if (Array.isArray(s.anyOf)) return s.anyOf.flatMap((x: Json) => typesOf(x));
  if (Array.isArray(s.type)) return s.type;
  return s.type ? [s.type] : [];
}

// The Campaign resource as the API promises it: field → JSON type, and whether it is nullable.
const SPEC_CAMPAIGN: Record<string, [string, boolean]> = {
  id: ["string", false],
  orgId: ["string", false],
  title: ["string", false],
  slug: ["string", false],
  description: ["string", true],
  type: ["string", false],
  status: ["string", false],
  goalAmountCents: ["integer", true],
  raisedAmountCents: ["integer", false],
  donationCount: ["integer", false],
  coverImageUrl: ["string", true],
  videoUrl: ["string", true],
  color: ["string", true],
  showDonorRoll: ["boolean", false],
  showGoal: ["boolean", false],
  startDate: ["string", true],
  endDate: ["string", true],
  suggestedAmounts: ["array", false],
  allowCustomAmount: ["boolean", false],
  allowRecurring: ["boolean", false],
  matchingEnabled: ["boolean", false],
  matchingOrgName: ["string", true],
  matchingMaxCents: ["integer", true],
  matchingRatioPct: ["integer", false],
  minAmountCents: ["integer", true],
  ticketPriceCents: ["integer", true],
  ticketCapacity: ["integer", true],
  ticketsSold: ["integer", false],
  parentCampaignId: ["string", true],
  scheduledPublishAt: ["string", true],
  createdAt: ["string", false],
  updatedAt: ["string", false],
};

beforeAll(async () => {
  await testDb();
});

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1.0 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("Goodfund API");
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("is built once and cached", () => {
    expect(buildOpenApiDocument(API_ROUTES)).toBe(doc);
  });

  it("documents every method of every route file, and nothing else", async () => {
    const files = routeFiles();
    expect(files).toContain("orgs/[idOrSlug]/campaigns");
    const implemented = new Set<string>();
    for (const file of files) {
      for (const method of await implementedMethods(file)) implemented.add(`${method} ${openApiPath(`/api/${file}`)}`);
    }
    const documented = new Set<string>();
    for (const [p, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const m of Object.keys(item)) if (METHODS.includes(m.toUpperCase() as never)) documented.add(`${m.toUpperCase()} ${p}`);
    }
    expect(
      [...implemented].filter((op) => !documented.has(op)),
      "implemented but not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((op) => !implemented.has(op)),
      "documented but not implemented",
    ).toEqual([]);
  });

  it("describes each operation's path parameters, security and error responses", () => {
    for (const row of OPERATIONS) {
      const id = row.doc.operationId;
      const op = doc.paths[openApiPath(row.path)][row.method.toLowerCase()];
      const pathParams = op.parameters.filter((p: Json) => p.in === "path").map((p: Json) => p.name);
      expect(pathParams, id).toEqual([...row.path.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]));
      const codes = Object.keys(op.responses);
      if (row.access === "public") {
        expect(op.security, id).toEqual([]);
        expect(codes).not.toContain("401");
        expect(codes).not.toContain("403");
      } else if (row.access === "cron") {
        expect(op.security, id).toEqual([{ cronSecret: [] }]);
        expect(codes, id).toContain("401");
        expect(codes).not.toContain("403");
      } else if (row.access === "donor") {
        // The donor account API: the donor cookie only; a cross-site write answers 403.
        expect(op.security, id).toEqual([{ donorCookie: [] }]);
        expect(codes, id).toContain("401");
        if (row.method !== "GET") expect(codes, id).toContain("403");
      } else if (row.person) {
        // Person-only: a session JWT, never an API key (which answers 403).
        expect(op.security, id).toEqual([{ bearerAuth: [] }]);
        expect(codes, id).toEqual(expect.arrayContaining(["401", "403"]));
      } else {
        expect(op.security, id).toBeUndefined();
        expect(codes, id).toContain("401");
      }
      if (row.access === "ADMIN" || row.access === "OWNER" || row.access === "MEMBER") expect(codes, id).toContain("403");
      if (row.body) expect(codes, id).toEqual(expect.arrayContaining(["400", "413", "415"]));
      if (row.limit !== "none") {
        expect(op.responses["429"].headers["Retry-After"]).toBeDefined();
        expect(op.responses[String(row.doc.success)].headers["X-RateLimit-Remaining"]).toBeDefined();
      }
      for (const [code, res] of Object.entries(op.responses as Record<string, Json>)) {
        expect(res.headers["X-Request-Id"], `${id} ${code}`).toBeDefined();
        if (Number(code) >= 400) expect(res.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    const personOnly = OPERATIONS.filter((r) => r.person).map((r) => r.doc.operationId);
    expect(personOnly).toEqual(
      expect.arrayContaining(["createOrganization", "addMember", "updateMember", "removeMember", "createApiKey", "revokeApiKey"]),
    );
  });

  it("lists campaigns with the query parameters of listCampaignsQuery", () => {
    const op = doc.paths["/api/orgs/{idOrSlug}/campaigns"].get;
    const query = op.parameters.filter((p: Json) => p.in === "query");
    expect(query.map((p: Json) => p.name).sort()).toEqual(["limit", "page", "status", "type"]);
    expect(query.find((p: Json) => p.name === "limit").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
  });

  it("resolves every $ref", () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((ref) => resolvePointer(ref) === undefined)).toEqual([]);
  });

  it("has the Error component with the validation details shape", () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(["error", "status"]);
    expect(Object.keys(error.properties.details.properties).sort()).toEqual(["codes", "fieldErrors", "formErrors"]);
  });

  it("describes every Campaign field as required, with its type", () => {
    const campaign = doc.components.schemas.Campaign;
    const created = doc.paths["/api/orgs/{idOrSlug}/campaigns"].post.responses["201"].content["application/json"].schema;
    expect(created).toEqual({ $ref: "#/components/schemas/Campaign" });
    for (const field of ["raisedAmountCents", "suggestedAmounts", "parentCampaignId", "scheduledPublishAt"]) {
      expect(campaign.required).toContain(field);
    }
    for (const [field, [type, nullable]] of Object.entries(SPEC_CAMPAIGN)) {
      expect(campaign.required, field).toContain(field);
      const types = typesOf(campaign.properties[field]);
      expect(types, field).toContain(type);
      expect(types.includes("null"), `${field} nullable`).toBe(nullable);
    }
  });

  it("takes request bodies from the input side of the schemas, with examples", () => {
    const body = doc.paths["/api/orgs/{idOrSlug}/campaigns"].post.requestBody.content["application/json"];
    expect(body.schema).toEqual({ $ref: "#/components/schemas/CreateCampaign" });
    expect(doc.components.schemas.CreateCampaign.required).toEqual(["title"]);
    expect(Object.keys(body.examples).length).toBeGreaterThan(0);
    // `role` has a default, so it is optional on input.
    expect(doc.components.schemas.AddMember.required).toEqual(["email"]);
  });

  it("gives examples the body schemas accept", () => {
    for (const row of OPERATIONS) {
      for (const [name, example] of Object.entries(row.doc.bodyExamples ?? {})) {
        const parsed = row.body!.safeParse(example.value);
        expect(parsed.success, `${row.doc.operationId} example ${name}: ${parsed.error?.message}`).toBe(true);
      }
    }
  });

  it("gives examples of creating an organization and campaigns that the API accepts, answering the documented fields", async () => {
    const user = await newUser();
    const orgRow = operation("createOrganization").doc;
    const campaignRow = operation("createCampaign").doc;
    const orgExample = { ...(orgRow.bodyExamples!.full.value as Json), slug: uniqueSlug() };
    const org = await post("/api/orgs", orgExample, { token: user.token });
    expect(org.status, org.text).toBe(201);
    const orgSchema = doc.components.schemas.Organization;
    expect(Object.keys(org.body).sort()).toEqual(Object.keys(orgSchema.properties).sort());
    for (const example of Object.values(campaignRow.bodyExamples!)) {
      const res = await post(`/api/orgs/${org.body.id}/campaigns`, example.value, { token: user.token });
      expect(res.status, res.text).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(Object.keys(doc.components.schemas.Campaign.properties).sort());
    }
  });
});

describe("The route manifest", () => {
  const check = (root?: string) =>
    execFileSync(
      process.execPath,
      ["--import", "tsx", "scripts/generate-route-manifest.mjs", "--check", ...(root ? [`--root=${root}`] : [])],
      {
        cwd: ROOT,
        stdio: "pipe",
        encoding: "utf8",
      },
    );

  it("lists every route file but the document's (npm run routes:generate is up to date); API_ROUTES adds it back", () => {
    expect(() => check()).not.toThrow();
    const files = routeFilesIncludingInternal().map((f) => `/api${f ? `/${f}` : ""}`);
    expect(files).toContain("/api/openapi.json");
    expect(ROUTES.map((r) => r.path).sort()).toEqual(files.filter((f) => f !== "/api/openapi.json"));
    expect(API_ROUTES.map((r) => r.path).sort()).toEqual(files);
  });

  it("is found stale when a route file is added without regenerating it", () => {
    const root = mkdtempSync(path.join(tmpdir(), "goodfund-manifest-"));
    try {
      for (const r of [...API_ROUTES.map((r) => r.path), "/api/brand-new"]) {
        const dir = path.join(root, "app", r.slice(1));
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, "route.ts"), "");
      }
      cpSync(path.join(API_DIR, "route-manifest.ts"), path.join(root, "app/api/route-manifest.ts"));
      let failure: { status?: number; stderr?: string } | undefined;
      try {
        check(root);
      } catch (err) {
        failure = err as { status?: number; stderr?: string };
      }
      expect(failure?.status).toBe(1);
      expect(failure?.stderr).toContain("npm run routes:generate");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("gives every exported handler a definition, or answers 405 with methods()", async () => {
    for (const { path: route, module } of API_ROUTES) {
      for (const method of METHODS) {
        const handler = (module as RouteModule)[method];
        if (!handler || handler.definition) continue;
        const url = new URL(route.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, "probe"), "http://localhost:3000");
        const res = await handler(new NextRequest(url, { method }), { params: Promise.resolve({}) });
        expect(res.status, `${method} ${route} has no definition`).toBe(405);
      }
    }
  });

  it("generates the document from the declared schemas: a route whose body gains a field documents it", () => {
    const extended = createCampaignBody.extend({ mascot: z.string().max(40) }).meta({ id: "CreateCampaignWithMascot" });
    const routes: RouteManifestEntry[] = API_ROUTES.map((entry) => {
      if (entry.path !== "/api/orgs/[idOrSlug]/campaigns") return entry;
      const real = (entry.module as RouteModule).POST!;
      const POST = Object.assign((...args: Parameters<RouteHandler>) => real(...args), {
        definition: { ...real.definition!, body: extended },
      });
      return { path: entry.path, module: { ...entry.module, POST } };
    });
    const changed = buildOpenApiDocument(routes) as Json;
    expect(changed).not.toBe(doc);

    const bodyOf = (d: Json) => d.paths["/api/orgs/{idOrSlug}/campaigns"].post.requestBody.content["application/json"].schema;
    expect(bodyOf(doc)).toEqual({ $ref: "#/components/schemas/CreateCampaign" });
    expect(bodyOf(changed)).toEqual({ $ref: "#/components/schemas/CreateCampaignWithMascot" });
    const schema = changed.components.schemas.CreateCampaignWithMascot;
    expect(schema.properties.mascot).toEqual({ type: "string", maxLength: 40 });
    expect(schema.required).toEqual(["title", "mascot"]);
    expect(Object.keys(schema.properties).sort()).toEqual(
      [...Object.keys(doc.components.schemas.CreateCampaign.properties), "mascot"].sort(),
    );
    expect(doc.components.schemas.CreateCampaign.properties.mascot).toBeUndefined();
    // Nothing else moved.
    expect(changed.paths["/api/orgs/{idOrSlug}/campaigns"].get).toEqual(doc.paths["/api/orgs/{idOrSlug}/campaigns"].get);
    expect(Object.keys(changed.paths)).toEqual(Object.keys(doc.paths));
  });
});

describe("GET /api/openapi.json", () => {
  it("answers the document, publicly, with X-Request-Id and a cache header", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("answers 405 to other methods", async () => {
    const res = await post("/api/openapi.json", {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});
