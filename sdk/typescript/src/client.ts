import createOpenApiClient, { type Client, type MaybeOptionalInit, type Middleware } from "openapi-fetch";
import { paginate, type FetchResult } from "./paginate.js";
import { retryingFetch, type FetchLike, type RetryOptions } from "./retry.js";
import type { paths } from "./schema.js";

export type GoodfundClientOptions = {
  /** Where Goodfund runs, such as `https://give.example.org` (paths start with `/api/`). */
  baseUrl: string;
  /** An API key (`gf_live_…` / `gf_test_…`) or a session token, sent as `Authorization: Bearer`; omit for public calls. */
  apiKey?: string;
  /** The fetch each attempt goes through (default `globalThis.fetch`). */
  fetch?: FetchLike;
  /** Retries of network errors and 429/502/503 answers (default 3 attempts in all). */
  retries?: RetryOptions;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
};

/** Paths whose GET answers a list: `{ data: [...], pagination }`. */
export type ListPath = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { "application/json": { data: unknown[]; pagination: unknown } } } } };
  }
    ? P
    : never;
}[keyof paths];

/** The item type of a list path. */
export type ListItem<P extends ListPath> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": { data: (infer T)[] } } } } };
}
  ? T
  : never;

export type GoodfundClient = Client<paths> & {
  /**
   * Every item of a list, page after page (cursor- or page-based alike), as an async iterator:
   * `for await (const c of gf.paginate("/api/orgs/{idOrSlug}/campaigns", { params: { path: { idOrSlug }, query: { limit: 100 } } }))`.
   * An error answer throws a `GoodfundApiError`.
   */
  paginate<P extends ListPath>(path: P, init: MaybeOptionalInit<paths[P], "get">): AsyncGenerator<ListItem<P>, void, undefined>;
};

/** A new random Idempotency-Key. */
const newIdempotencyKey = () => globalThis.crypto.randomUUID();

/**
 * A typed client of the Goodfund API (openapi-fetch over the API's OpenAPI document):
 * `const { data, error } = await gf.GET("/api/orgs/{idOrSlug}/campaigns", { params: { path: { idOrSlug: "demo" } } })`.
 *
 * Every request carries `Authorization: Bearer <apiKey>`; every POST an `Idempotency-Key` (a
 * random UUID unless the call sets its own), the same on each retry of that call, so a POST
 * whose answer was lost is never done twice. Network errors and 429/502/503 answers are retried
 * with capped exponential backoff and jitter, or after `Retry-After` when the server gives it.
 */
export function createClient(options: GoodfundClientOptions): GoodfundClient {
  const baseFetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createOpenApiClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.headers,
    fetch: retryingFetch(baseFetch, options.retries),
  });

  const headersMiddleware: Middleware = {
    onRequest({ request }) {
      if (options.apiKey && !request.headers.has("authorization")) request.headers.set("Authorization", `Bearer ${options.apiKey}`);
      if (request.method === "POST" && !request.headers.has("idempotency-key")) request.headers.set("Idempotency-Key", newIdempotencyKey());
      return request;
    },
  };
  client.use(headersMiddleware);

  function paginateList<P extends ListPath>(path: P, init: MaybeOptionalInit<paths[P], "get">) {
    type Init = { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;
    // The path is one of the list paths, so GET takes it; TypeScript can't follow that through the generic.
    const get = client.GET as unknown as (path: string, init: Init) => Promise<FetchResult<ListItem<P>>>;
    const base = (init ?? {}) as Init;
    return paginate((position) => get(path, { ...base, params: { ...base.params, query: { ...base.params?.query, ...position } } }));
  }

  return Object.assign(client, { paginate: paginateList });
}
