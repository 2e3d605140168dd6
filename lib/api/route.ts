import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import type { z } from "zod";
import { getDb, type Db } from "@/db";
import { findOrganization, getMembershipRole } from "@/db/queries/organizations";
import type { Donor, Organization, Role, User } from "@/db/schema";
import type { Actor } from "@/lib/actor";
import { authenticateDonorRequest, findOrganizationBySlug } from "@/lib/auth/donor-session";
import { authenticateRequest } from "@/lib/auth/session";
import { roleSatisfies } from "@/lib/roles";
import { assertSecondFactor } from "@/lib/auth/two-factor";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { limitRequest, rateLimitHeaders, type PolicyName } from "@/lib/ratelimit";
import { hostName, orgSlugForHost } from "@/lib/hosted-urls/custom-domains";
import { customDomainRoute } from "@/lib/hosted-urls/routes";
import { servedCustomDomain } from "@/lib/schemas/organizations";
import { apiSecurityHeaders } from "@/lib/security/headers";
import { isAllowedCookieRequest } from "@/lib/security/same-origin";
import { readJsonBody, readRawBody } from "./body";
import { clientIpOf } from "./client-ip";
import { assertCronCaller } from "./cron-auth";
import { idempotencyCaller, idempotentRequestOf, runIdempotently, type IdempotentRequest } from "./idempotency";
import { isDatabaseUnavailable } from "@/db/errors";
import { AppError } from "@/lib/errors";
import { ApiError, flattenIssues, forbidden, fromAppError, notFound, unauthorized, validationError } from "./errors";
import { errorResponse } from "./respond";
import type { Tag } from "./tags";

export { CLIENT_IP_HEADER, CLIENT_IP_PROOF_HEADER, clientIpOf, socketAddressOf } from "./client-ip";

type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * Who may call an operation: anyone ("public"), any signed-in user ("user"), a scheduler holding
 * CRON_SECRET ("cron"), a donor signed in to the path's organization by the donor cookie
 * ("donor"), or a member of the scope's organization with at least that role.
 */
export type Access = "public" | "user" | "cron" | "donor" | Role;

export type Example = { summary: string; value: unknown };

/**
 * A route's class when the server sheds load (server/overload.ts): "priority" (a donor paying, the
 * processor's events: a far higher limit, shed last), "reports" (heavy reads: a small limit,
 * shed first), "api" (everything else, the default), "exempt" (the health and readiness probes: never
 * queued or shed, so a load balancer sees the truth under load; only for cheap, bodiless routes).
 */
export type OverloadClass = "priority" | "api" | "reports" | "exempt";

/** What only the API reference needs to know about an operation; the rest comes from the route's options. */
export type RouteDoc = {
  operationId: string;
  summary: string;
  description?: string;
  tag: Tag;
  success: 200 | 201 | 202 | 204;
  /** Schema of the success body (output side); absent for 204. */
  response?: z.ZodType;
  /** JSON unless said otherwise (CSV exports answer `text/csv`, statements `application/pdf`, the metrics `text/plain`). */
  responseMediaType?: "application/json" | "text/csv" | "application/pdf" | "text/plain";
  responseDescription: string;
  bodyExamples?: Record<string, Example>;
  /** A body the handler reads itself (to verify a signature over its bytes): documented, not parsed by the wrapper. */
  rawBody?: z.ZodType;
  /** What answers 404, when the path has parameters. */
  notFound?: string;
  /** The 409 conflicts this operation can answer. */
  conflicts?: string[];
};

/** One method of one route: what the wrapper enforces and, for the documented API, its reference. */
export type RouteDefinition = {
  access: Access;
  limit: PolicyName | "none";
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The path parameter that, when it names the caller, lets a member below `access` act on themselves. */
  orSelf?: string;
  /** Only a signed-in person may call it: an API key answers 403. */
  person?: boolean;
  /** A sensitive action: a person with two-factor on needs a second factor within 15 minutes (lib/auth/two-factor.ts). */
  sensitive?: boolean;
  /** Served by the server's fast path (see RouteOptions.fastPath). */
  fastPath?: true;
  /** Its overload class, when not "api" (see RouteOptions.overload). */
  overload?: OverloadClass;
  /** The largest body it streams itself (see RouteOptions.uploadBytes). */
  uploadBytes?: number;
  /** Absent for endpoints outside the documented API (next-auth's own, the catch-all 404). */
  doc?: RouteDoc;
};

export type RouteHandler = ((req: NextRequest, ctx: NextContext) => Promise<Response>) & {
  readonly definition?: RouteDefinition;
};
export type DefinedRouteHandler = RouteHandler & { readonly definition: RouteDefinition };

type Auth = "user" | "public" | "cron" | "donor";
type AnySchema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Scope = { orgId: string };

export type RouteContext<A extends Auth, P, Q, B, S, N extends boolean = false, V = undefined> = {
  req: NextRequest;
  db: Db;
  requestId: string;
  clientIp: string;
  /** The signed-in person; null on public calls and for API keys (except on `person` routes, which keys can't call). */
  user: A extends "user" ? (N extends true ? User : User | null) : User | null;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** What `scope` loaded (the organization, or the resource and its organization ID). */
  scope: S;
  /** The caller's role in the scope's organization (an API key's own role; null on public routes). */
  role: Role | null;
  /** Who is acting: the signed-in person or an API key; null on public and donor calls. */
  actor: Actor | null;
  /** On donor routes, the donor the cookie signs in (never erased); null elsewhere. */
  donor: A extends "donor" ? Donor : null;
  /** On donor routes, the organization of `:orgSlug` (the donor's own); null elsewhere. */
  org: A extends "donor" ? Organization : null;
  /** What the route's `verify` answered (the processor's verified event); undefined without one. */
  verified: V;
};

export type RouteOptions<A extends Auth, P, Q, B, S, N extends boolean = false, V = undefined> = {
  /**
   * "user" (default) needs a valid session JWT or an API key (`gf_…`, which acts only on its own
   * organization, with its role); "public" needs none and ignores both; "cron" needs
   * `Authorization: Bearer <CRON_SECRET>` (the route answers 404 while CRON_SECRET is unset; 10
   * wrong secrets a minute from one client IP, then 429: ./cron-auth.ts).
   *
   * "donor": the donor account API, `/api/donor/orgs/[orgSlug]/...`. The wrapper loads the
   * organization named by the `orgSlug` path parameter (which the route's `params` schema must
   * include) and the donor its donor cookie signs in (lib/auth/donor-session.ts: signed,
   * 7 days, that organization's only, erased donors signed out); without a valid cookie, or
   * for an unknown organization, it answers 401 `Unauthorized`. Bearer tokens and API keys are
   * ignored. Writes (anything but GET/HEAD/OPTIONS) must come from our own pages (the app's
   * origin or the organization's custom domain): a cross-site one answers 403. The handler gets
   * `ctx.donor` and `ctx.org`, and must itself scope every lookup to `ctx.donor.id` (another
   * donor's resource answers 404). Rate limit: "authenticated" per donor by default. E.g.
   * `withRoute({ auth: "donor", params: donorOrgParam, doc: { tag: "Donor account", ... } },
   * async ({ db, donor, org }) => ok(await listDonorThings(db, org.id, donor.id)))`.
   */
  auth?: A;
  /** Rate-limit policy; defaults to "authenticated" for user routes, "public" for public ones, "none" for cron. */
  limit?: PolicyName | "none";
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Loads the organization-scoped thing the route acts on, throwing a 404 when it is absent.
   * On user routes the caller's membership of `orgId` is then checked against `role`.
   */
  scope?: (args: { db: Db; params: Out<P> }) => Promise<S & Scope>;
  role?: Role;
  /** A path parameter that, when it is the caller's own user ID, lets any member act without `role`. */
  orSelf?: keyof Out<P> & string;
  /** Only a signed-in person may call it (creating organizations, managing members or API keys): API keys answer 403. */
  person?: N;
  /**
   * A resource of another organization is not found (404 with `doc.notFound`) rather than
   * forbidden: a caller who is no member of the scope's organization (or another organization's
   * API key) learns nothing about it. Members without the role still get 403.
   */
  hiddenFromOutsiders?: boolean;
  /**
   * A sensitive action (creating API keys or webhook endpoints, payout onboarding, role changes,
   * refunds): a person with two-factor on must have passed it within the last 15 minutes, else
   * 403 `recent_two_factor_required`. API keys are unaffected.
   */
  sensitive?: boolean;
  /**
   * A route whose caller proves itself over the raw body (the processor webhook's signature)
   * checks it here: given the body's bytes, it answers what the handler gets as `ctx.verified`,
   * or throws the refusal. It runs before an Idempotency-Key is claimed, so a request that fails
   * it leaves no row behind (such a route has no rate limit to bound them).
   */
  verify?: (req: NextRequest, rawBody: Uint8Array) => Promise<V>;
  /**
   * Served by the server itself, straight from node:http (server/fast-path.ts), past Next.js's
   * router: for the hottest routes. Its parameters must be single segments (`[id]`, no catch-all), and the handler reads only
   * its request (`headers()`, `cookies()` and `after()` exist only inside Next.js; the lint keeps
   * API code off them). `npm run routes:generate` adds it to the server's table.
   */
  fastPath?: boolean;
  /**
   * Its class in the server's overload guard (server/overload.ts); "api" when absent. An "exempt"
   * route (a health probe) is also served on any host, without the custom-domain step.
   */
  overload?: OverloadClass;
  /**
   * A route that reads a large body itself, as a stream (a CSV import), up to this many bytes (the
   * handler enforces it): the server lets its body through unbuffered instead of waiting for it
   * under the 1 MiB cap (server/request-body.ts). `npm run routes:generate` adds it to the server's table.
   */
  uploadBytes?: number;
  /** The route's entry in the API reference. */
  doc: RouteDoc;
};

/**
 * A route that does not go through `withRoute` (next-auth's own, the catch-all 404): the same
 * frame around its handler (host step, request ID, security headers, errors, log line), with a
 * definition attached.
 */
export function defineRoute<C>(
  definition: RouteDefinition,
  handler: (req: NextRequest, ctx: C) => Promise<Response>,
): ((req: NextRequest, ctx: C) => Promise<Response>) & { readonly definition: RouteDefinition } {
  const framed = (req: NextRequest, ctx: C) => apiRequest(req, () => handler(req, ctx));
  return Object.assign(framed, { definition });
}

/** Scope of `/api/orgs/:idOrSlug/...` routes: the organization named in the path. */
export async function orgScope({ db, params }: { db: Db; params: { idOrSlug: string } }) {
  const org = await findOrganization(db, params.idOrSlug);
  if (!org) throw notFound("Organization not found");
  return { orgId: org.id, org } satisfies Scope & { org: Organization };
}

export function requestIdOf(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
}

function parseWith<S extends AnySchema>(schema: S, input: unknown, where: "params" | "query" | "body"): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    if (where === "params") throw notFound();
    const details = flattenIssues(result.error.issues);
    throw new ApiError(400, "Validation failed", details);
  }
  // Postgres text cannot hold NUL: a parsed value carrying one would fail in the database (500).
  const withNul = nulPaths(result.data);
  if (withNul.length > 0) {
    if (where === "params") throw notFound();
    const message = "Must not contain NUL characters";
    throw validationError(
      Object.fromEntries(withNul.filter(Boolean).map((p) => [p, [message]])),
      withNul.includes("") ? [message] : [],
      Object.fromEntries(withNul.map((p) => [p, [{ code: "contains_nul" }]])),
    );
  }
  return wellFormed(result.data) as z.output<S>;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The parsed value with every lone UTF-16 surrogate replaced by U+FFFD. A text column stores
 * them that way anyway (UTF-8 cannot hold one), but JSON columns refuse them outright, which
 * would turn a client's odd string into a 500.
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "\ufffd");
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)]));
  }
  return value;
}

/** Dotted paths of the strings inside a parsed value that contain U+0000 ("" for the value itself). */
function nulPaths(value: unknown, path = "", out: string[] = []): string[] {
  if (typeof value === "string") {
    if (value.includes("\u0000")) out.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nulPaths(v, path ? `${path}.${i}` : String(i), out));
  } else if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) nulPaths(v, path ? `${path}.${k}` : k, out);
  }
  return out;
}

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k] = v;
  return out;
}

/**
 * Maps anything thrown to the error body `{ error, status, details? }`: a domain error answers
 * the status its code maps to; unknown failures are logged and answer 500.
 */
export function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof AppError) return fromAppError(err);
  if (isDatabaseUnavailable(err)) {
    log.error("database unavailable", { requestId, ...errorFields(err) });
    return new ApiError(503, "Service unavailable", undefined, { "Retry-After": "5" });
  }
  log.error("unhandled error", { requestId, ...errorFields(err) });
  return new ApiError(500, "Internal server error");
}

/** Everything the steps below learn about a request, handed from one to the next. */
type Caller = {
  session: Awaited<ReturnType<typeof authenticateRequest>>;
  user: User | null;
  apiKey: NonNullable<Awaited<ReturnType<typeof authenticateRequest>>>["apiKey"] | null;
  actor: Actor | null;
  org: Organization | null;
  donor: Donor | null;
};
type Input<V> = { rawBody?: Uint8Array; verified: V; idempotent: Omit<IdempotentRequest, "caller"> | null; query: unknown; body: unknown };

/**
 * The one wrapper every API route goes through, whichever way the request came (Next.js's
 * router or the server's fast path), in this order of named steps:
 * host (on a custom domain only its public API: 404) → authenticate (401; a
 * cookie-authenticated write from another site: 403) → rate-limit (429) → parse params → load
 * scope (404) → authorize (403) → read input: query and body (400/413/415) → run (once per
 * Idempotency-Key on a POST: see ./idempotency) → map errors. Every response gets
 * X-Request-Id and the API's security headers (`finishResponse`), and rate-limited ones the
 * X-RateLimit-* headers, errors included.
 */
export function withRoute<
  A extends Auth = "user",
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
  S = Scope,
  N extends boolean = false,
  V = undefined,
>(options: RouteOptions<A, P, Q, B, S, N, V>, handler: (ctx: RouteContext<A, P, Q, B, S, N, V>) => Promise<Response>): DefinedRouteHandler {
  type Ctx = RouteContext<A, P, Q, B, S, N, V>;
  const auth: Auth = options.auth ?? "user";
  const policy = options.limit ?? (auth === "public" ? "public" : auth === "cron" ? "none" : "authenticated");
  const definition: RouteDefinition = {
    access: auth === "user" ? (options.scope ? (options.role ?? "MEMBER") : "user") : auth,
    limit: policy,
    params: options.params,
    query: options.query,
    body: options.body,
    orSelf: options.orSelf,
    person: options.person === true ? true : undefined,
    sensitive: options.sensitive === true ? true : undefined,
    fastPath: options.fastPath === true ? true : undefined,
    overload: options.overload,
    uploadBytes: options.uploadBytes,
    doc: options.doc,
  };
  // The probes (`overload: "exempt"`) answer on any Host a load balancer sends, with no lookup of custom domains.
  const anyHost = options.overload === "exempt";
  const run: RouteHandler = (req, nextCtx) =>
    apiRequest(
      req,
      async (requestId, headers, who) => {
        const db = await getDb();
        const clientIp = clientIpOf(req);
        const rawParams = (await nextCtx.params) ?? {};
        const caller = await authenticateStep(db, req, auth, clientIp, rawParams);
        who.userId = caller.user?.id;
        who.apiKeyId = caller.apiKey?.id;
        await rateLimitStep(auth, policy, caller, clientIp, headers);
        if (caller.apiKey && options.person && !options.scope) throw forbidden();
        const params = paramsStep(options.params, rawParams) as Out<P>;
        const { scope, role } = await authorizeStep(db, options, auth, caller, params);
        await assertSecondFactor(db, caller.session, { scope: options.scope ? scope : null, sensitive: options.sensitive === true });
        const input = await inputStep(req, options);
        const ctx: Ctx = {
          req,
          db,
          requestId,
          clientIp,
          user: caller.user as Ctx["user"],
          params,
          query: input.query as Out<Q>,
          body: input.body as Out<B>,
          scope,
          role,
          actor: caller.actor,
          donor: caller.donor as Ctx["donor"],
          org: caller.org as Ctx["org"],
          verified: input.verified,
        };
        return runStep(db, input.idempotent, caller, clientIp, requestId, () => handler(ctx));
      },
      { anyHost },
    );
  return Object.assign(run, { definition });
}

/** Who is asking: the session or API key on user routes, the cron secret, the donor cookie; 401/403 here or at the rate limit. */
async function authenticateStep(
  db: Db,
  req: NextRequest,
  auth: Auth,
  clientIp: string,
  rawParams: Record<string, string | string[] | undefined>,
): Promise<Caller> {
  if (auth === "cron") {
    const secret = getEnv().CRON_SECRET;
    if (!secret) throw notFound();
    await assertCronCaller(req.headers.get("authorization"), secret, clientIp);
  }
  // Public routes ignore credentials; API keys authenticate only on user routes.
  const session = auth === "user" ? await authenticateRequest(db, req) : null;
  const user = session?.user ?? null;
  const apiKey = session?.apiKey ?? null;
  const actor: Actor | null = user
    ? { type: "user", id: user.id, label: user.email }
    : apiKey
      ? { type: "api_key", id: apiKey.id, label: apiKey.name, orgId: apiKey.orgId, role: apiKey.role }
      : null;
  // A session cookie rides along on requests other sites make; only our own pages may write with it.
  // (An API key is sent deliberately, never by a browser on its own: no such rule applies.)
  if (session?.via === "cookie" && !isAllowedCookieRequest(req, new URL(getEnv().appUrl).origin)) throw forbidden();
  // Donor routes: the path's organization, and the donor its cookie signs in (an unknown organization has none).
  let org: Organization | null = null;
  let donor: Donor | null = null;
  if (auth === "donor") {
    const slug = rawParams.orgSlug;
    org = typeof slug === "string" && nulPaths(slug).length === 0 ? ((await findOrganizationBySlug(db, slug)) ?? null) : null;
    donor = org ? await authenticateDonorRequest(db, req, org) : null;
    // The cookie rides along on requests other sites make: only the app's and the organization's own pages may write with it.
    if (donor && org && !isAllowedDonorWrite(req, org)) throw forbidden();
  }
  return { session, user, apiKey, actor, org, donor };
}

/** Counts the request (its headers go on the answer), then refuses the unauthenticated (401) and the over-limit (429). */
async function rateLimitStep(
  auth: Auth,
  policy: PolicyName | "none",
  caller: Caller,
  clientIp: string,
  headers: Record<string, string>,
): Promise<void> {
  const signedIn = auth === "user" ? caller.actor !== null : auth === "donor" ? caller.donor !== null : true;
  if (policy === "none") {
    if (!signedIn) throw unauthorized();
    return;
  }
  // Unauthenticated calls count against the caller's IP, like public ones; each key and each donor has its own count.
  const [name, key]: [PolicyName, string] =
    auth === "donor" && caller.donor
      ? ["authenticated", `donor:${caller.donor.id}`]
      : auth !== "user" || !caller.actor
        ? ["public", clientIp]
        : ["authenticated", caller.apiKey ? `key:${caller.apiKey.id}` : caller.actor.id];
  const result = await limitRequest(name, key);
  Object.assign(headers, rateLimitHeaders(result));
  if (!signedIn) throw unauthorized();
  if (!result.success) throw new ApiError(429, "Too many requests");
}

/** The path's parameters, parsed; a path naming nothing (a NUL, a failed parse) is 404. */
function paramsStep(schema: AnySchema | undefined, rawParams: Record<string, string | string[] | undefined>): unknown {
  // No ID or slug contains NUL (Postgres text cannot hold one), so such a path names nothing.
  if (nulPaths(rawParams).length > 0) throw notFound();
  return schema ? parseWith(schema, rawParams, "params") : rawParams;
}

/** Loads the route's scope (404) and checks the caller's role in its organization (403). */
async function authorizeStep<P, S>(
  db: Db,
  options: {
    scope?: (args: { db: Db; params: P }) => Promise<S & Scope>;
    role?: Role;
    orSelf?: string;
    person?: boolean;
    hiddenFromOutsiders?: boolean;
    doc?: RouteDoc;
  },
  auth: Auth,
  caller: Caller,
  params: P,
): Promise<{ scope: S & Scope; role: Role | null }> {
  if (!options.scope) return { scope: undefined as unknown as S & Scope, role: null };
  const scope = await options.scope({ db, params });
  const { apiKey, user } = caller;
  let role: Role | null = null;
  if (apiKey) {
    // A key acts on its own organization only, with its own role, and never where a person is needed.
    role = apiKey.orgId === scope.orgId ? apiKey.role : null;
    if (!role && options.hiddenFromOutsiders) throw notFound(options.doc?.notFound);
    if (!role || options.person || !roleSatisfies(role, options.role ?? "MEMBER")) throw forbidden();
  } else if (auth === "user") {
    role = await getMembershipRole(db, scope.orgId, user!.id);
    const self = options.orSelf !== undefined && (params as Record<string, unknown>)[options.orSelf] === user!.id;
    if (!role && !self && options.hiddenFromOutsiders) throw notFound(options.doc?.notFound);
    if (!role || !(roleSatisfies(role, options.role ?? "MEMBER") || self)) throw forbidden();
  }
  return { scope, role };
}

/** The raw body a `verify` route proves itself over, the Idempotency-Key, the query and the JSON body. */
async function inputStep<V>(
  req: NextRequest,
  options: { verify?: (req: NextRequest, rawBody: Uint8Array) => Promise<V>; query?: AnySchema; body?: AnySchema },
): Promise<Input<V>> {
  // A caller the route proves itself is proven before anything is stored for its request.
  const rawBody = options.verify ? await readRawBody(req) : undefined;
  const verified = (options.verify ? await options.verify(req, rawBody!) : undefined) as V;
  // A POST's Idempotency-Key (checked, with the body hashed from a copy, before the body is read).
  const idempotent = req.method === "POST" ? await idempotentRequestOf(req, rawBody) : null;
  const query = options.query ? parseWith(options.query, queryObject(req.nextUrl), "query") : undefined;
  const body = options.body ? parseWith(options.body, await readJsonBody(req), "body") : undefined;
  return { rawBody, verified, idempotent, query, body };
}

/** Runs the handler; under an Idempotency-Key once per key, its errors becoming answers, so 4xx ones are kept too. */
function runStep(
  db: Db,
  idempotent: Omit<IdempotentRequest, "caller"> | null,
  caller: Caller,
  clientIp: string,
  requestId: string,
  handle: () => Promise<Response>,
): Promise<Response> {
  if (!idempotent) return handle();
  const owner = caller.donor ? `donor:${caller.donor.id}` : idempotencyCaller(caller.actor, clientIp);
  return runIdempotently(db, { ...idempotent, caller: owner }, () =>
    handle().catch((err: unknown) => errorResponse(toApiError(err, requestId))),
  );
}

/** Who the request's log line names. */
type Who = { userId?: string; apiKeyId?: string };

/**
 * The frame of every API request, withRoute's and defineRoute's alike: its request ID, the host
 * step, errors mapped to the error shape, the API's security headers (and whatever `steps` adds
 * to `headers`) on every answer, and one log line.
 */
async function apiRequest(
  req: NextRequest,
  steps: (requestId: string, headers: Record<string, string>, who: Who) => Promise<Response>,
  { anyHost = false }: { anyHost?: boolean } = {},
): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(req);
  const headers: Record<string, string> = { "X-Request-Id": requestId, ...apiSecurityHeaders(getEnv().appUrl) };
  const who: Who = {};
  let response: Response;
  try {
    if (!anyHost) await hostStep(req);
    response = await steps(requestId, headers, who);
  } catch (err) {
    response = errorResponse(toApiError(err, requestId));
  }
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  log.info("request", {
    requestId,
    method: req.method,
    path: req.nextUrl.pathname,
    status: response.status,
    ms: Math.round(performance.now() - started),
    userId: who.userId,
    apiKeyId: who.apiKeyId,
  });
  return response;
}

let appHost = { url: "", name: "" };

/**
 * The API a host serves (lib/hosted-urls/routes.ts): an organization's verified custom domain
 * serves only the public API its pages call (the rest is 404 there); the app's own host, an IP
 * address or any host that is nobody's domain serves all of it.
 */
async function hostStep(req: NextRequest): Promise<void> {
  const appUrl = getEnv().appUrl;
  if (appHost.url !== appUrl) appHost = { url: appUrl, name: new URL(appUrl).hostname };
  const orgSlug = await orgSlugForHost(hostName(req.headers.get("host")), appHost.name);
  if (orgSlug !== null && customDomainRoute(req.nextUrl.pathname, orgSlug).action === "not-found") throw notFound();
}

/** A donor-cookie write comes from our own pages: the app's origin, or the organization's (verified) custom domain. */
export function isAllowedDonorWrite(req: Request, org: Pick<Organization, "customDomain" | "customDomainStatus">): boolean {
  if (isAllowedCookieRequest(req, new URL(getEnv().appUrl).origin)) return true;
  const domain = servedCustomDomain(org);
  return domain !== null && isAllowedCookieRequest(req, `https://${domain}`);
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * A route module's exports: the given handlers (each carrying its definition, which the route
 * manifest collects for the API reference), and a JSON 405 with `Allow` for every other method.
 */
export function methods(handlers: Partial<Record<Method, DefinedRouteHandler>>): Record<Method, RouteHandler> {
  const allow = METHODS.filter((m) => handlers[m]).join(", ");
  const notAllowed: RouteHandler = (req) =>
    apiRequest(req, async () => {
      throw new ApiError(405, "Method not allowed", undefined, { Allow: allow });
    });
  return Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? notAllowed])) as Record<Method, RouteHandler>;
}
