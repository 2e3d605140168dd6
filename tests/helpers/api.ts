import { randomBytes, randomInt } from "node:crypto";
import path from "node:path";
import { getRouteMatcher } from "next/dist/shared/lib/router/utils/route-matcher";
import { getRouteRegex } from "next/dist/shared/lib/router/utils/route-regex";
import { sortPages } from "next/dist/shared/lib/router/utils/sortable-routes";
import { NextRequest } from "next/server";
import { CLIENT_IP_HEADER, CLIENT_IP_KEY_ENV, CLIENT_IP_PROOF_HEADER, clientIpProof } from "@/lib/api/client-ip";
import type { RouteHandler } from "@/lib/api/route";
import { issueSessionToken } from "@/lib/services/sessions/session-token";
// @ts-expect-error plain ESM script without type declarations
import { apiPathOf, apiRouteDirs } from "../../scripts/generate-route-manifest.mjs";
import { testDb } from "./db";

/**
 * Calls the app's real route handlers with real Request objects, routed by Next.js's own route
 * sorting and matching over the route files under app/api (static segments before dynamic ones
 * before catch-alls), so tests run the whole HTTP stack of a route (wrapper, validation,
 * services, database) without a build. A route's module is imported when a test first calls it:
 * a test file pays for loading the routes it uses, not all of them (the route manifest, which
 * tests/integration/openapi.test.ts keeps in step with these files, imports every one).
 */
type RouteModule = Partial<Record<string, RouteHandler>>;
type Route = {
  path: string;
  load: () => Promise<RouteModule>;
  match: (pathname: string) => false | Record<string, string | string[] | undefined>;
};

const ROOT = path.resolve(__dirname, "../..");

/** `/api/...` for each route file under app/api, with its file. */
const routeFiles = new Map<string, string>(
  (apiRouteDirs(ROOT) as string[]).map((dir) => [apiPathOf(dir), path.join(ROOT, "app/api", dir, "route.ts")]),
);

const loaded = new Map<string, Promise<RouteModule>>();
const routes: Route[] = sortPages([...routeFiles.keys()]).map((routePath) => ({
  path: routePath,
  load: () => {
    if (!loaded.has(routePath)) loaded.set(routePath, import(routeFiles.get(routePath)!) as Promise<RouteModule>);
    return loaded.get(routePath)!;
  },
  match: getRouteMatcher(getRouteRegex(routePath)),
}));

/** The handlers of the route file served at `routePath` (`/api/donations/[id]/receipt.pdf`), for a test that builds its own request. */
export async function routeHandlers(routePath: string): Promise<Record<string, RouteHandler>> {
  const route = routes.find((r) => r.path === routePath);
  if (!route) throw new Error(`no route file serves ${routePath}`);
  return (await route.load()) as Record<string, RouteHandler>;
}

function match(pathname: string): { route: Route; params: Record<string, string | string[] | undefined> } | undefined {
  for (const route of routes) {
    const params = route.match(pathname);
    if (params) return { route, params };
  }
  return undefined;
}

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers; text: string };

export type CallOptions = {
  token?: string;
  body?: unknown;
  /** A raw body sent as is (for malformed-input tests); `body` is JSON-encoded otherwise. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /**
   * The socket address our HTTP server (server/client-ip.ts) would see and write, with its proof;
   * random by default, so tests don't share a public bucket. null: no server wrote one (the app
   * under `next dev`), so only what `headers` carries reaches the app.
   */
  ip?: string | null;
};

export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/**
 * The client-IP headers our server writes for a connection from `ip`: the address and its HMAC
 * under the process's key (handed over here the way the server hands it to the app).
 */
export function serverClientIpHeaders(ip: string): Record<string, string> {
  process.env[CLIENT_IP_KEY_ENV] ??= randomBytes(32).toString("base64url");
  return { [CLIENT_IP_HEADER]: ip, [CLIENT_IP_PROOF_HEADER]: clientIpProof(ip, Buffer.from(process.env[CLIENT_IP_KEY_ENV]!, "base64url")) };
}

export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  await testDb();
  const url = new URL(path, "http://localhost:3000");
  const found = match(url.pathname);
  if (!found) throw new Error(`no route file matches ${url.pathname}`);
  const handler = (await found.route.load())[method];
  if (!handler) throw new Error(`${url.pathname} exports no ${method}`);
  const headers = new Headers(opts.headers);
  if (opts.ip !== null) for (const [k, v] of Object.entries(serverClientIpHeaders(opts.ip ?? randomIp()))) headers.set(k, v);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  let body: BodyInit | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody as BodyInit;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new NextRequest(url, { method, headers, body });
  const res = await handler(req, { params: Promise.resolve(found.params) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (CSV exports); the raw text is in `text`.
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

export const get = <T = any>(path: string, opts?: CallOptions) => call<T>("GET", path, opts);
export const post = <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>("POST", path, { ...opts, body });
export const patch = <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>("PATCH", path, { ...opts, body });
export const del = <T = any>(path: string, opts?: CallOptions) => call<T>("DELETE", path, opts);

export type TestUser = { sub: string; email: string; name: string; token: string };

/** A fresh identity with a valid session token (its user is provisioned on first use). */
export async function newUser(name = "Test User"): Promise<TestUser> {
  const id = randomBytes(6).toString("hex");
  const sub = `usr_test${id}`;
  const email = `user-${id}@example.org`;
  return { sub, email, name, token: await issueSessionToken({ sub, email, name }) };
}

export const uniqueSlug = (prefix = "org") => `${prefix}-${randomBytes(5).toString("hex")}`;

/** An organization owned by a new user (or `owner`), made through the API. */
export async function newOrg(owner?: TestUser, extra: Record<string, unknown> = {}) {
  const user = owner ?? (await newUser("Owner"));
  const res = await post("/api/orgs", { name: "Test Org", slug: uniqueSlug(), ...extra }, { token: user.token });
  if (res.status !== 201) throw new Error(`org create failed: ${res.status} ${res.text}`);
  return { owner: user, org: res.body as { id: string; slug: string } & Record<string, any> };
}

export async function newCampaign(org: { id: string }, token: string, body: Record<string, unknown> = {}) {
  const res = await post(`/api/orgs/${org.id}/campaigns`, { title: "Spring appeal", ...body }, { token });
  if (res.status !== 201) throw new Error(`campaign create failed: ${res.status} ${res.text}`);
  return res.body as { id: string; slug: string } & Record<string, any>;
}

/** Adds `user` to the organization with `role` through the API, as its owner. */
export async function addMember(orgId: string, ownerToken: string, user: TestUser, role: "OWNER" | "ADMIN" | "MEMBER") {
  const res = await post(`/api/orgs/${orgId}/members`, { email: user.email, role }, { token: ownerToken });
  if (res.status !== 201) throw new Error(`add member failed: ${res.status} ${res.text}`);
}
