import { GoodfundApiError } from "./errors.js";

/** Cursor-based lists (donations, the audit log): pass `nextCursor` as `cursor` until it is null. */
export type CursorPagination = { limit: number; nextCursor: string | null };
/** Page-based lists (campaigns, donors, …): `page` from 1, `hasMore` while rows remain. */
export type PagePagination = { page: number; limit: number; total: number; hasMore: boolean };

export type Page<T> = { data: T[]; pagination: CursorPagination | PagePagination };

/** What to ask for next: `cursor` for cursor-based lists, `page` for page-based ones; both unset for the first page. */
export type PagePosition = { cursor?: string; page?: number };

/** An openapi-fetch result (`{ data }` or `{ error }`, with the response). */
export type FetchResult<T> = { data?: Page<T>; error?: unknown; response: Response };

function isFetchResult<T>(value: Page<T> | FetchResult<T>): value is FetchResult<T> {
  return "response" in value && value.response instanceof Response;
}

/**
 * Every item of a paged list, fetching page after page as the loop asks for more. `fetchPage`
 * gets the position of the page wanted (pass `cursor` or `page` on as the list's query) and
 * returns the page, or the result of a client call as it is (an error answer then throws a
 * `GoodfundApiError`):
 *
 *     for await (const donation of paginate(({ cursor }) =>
 *       gf.GET("/api/orgs/{idOrSlug}/donations", { params: { path: { idOrSlug: "demo" }, query: { cursor, limit: 100 } } }),
 *     )) console.log(donation.id);
 */
export async function* paginate<T>(
  fetchPage: (position: PagePosition) => Promise<Page<T> | FetchResult<T>>,
): AsyncGenerator<T, void, undefined> {
  let position: PagePosition = {};
  for (;;) {
    const result = await fetchPage(position);
    let page: Page<T>;
    if (isFetchResult(result)) {
      if (!result.response.ok || result.data === undefined) throw new GoodfundApiError(result.response, result.error);
      page = result.data;
    } else {
      page = result;
    }
    yield* page.data;
    const { pagination } = page;
    if ("nextCursor" in pagination) {
      if (pagination.nextCursor === null || pagination.nextCursor === position.cursor) return;
      position = { cursor: pagination.nextCursor };
    } else {
      if (!pagination.hasMore || page.data.length === 0) return;
      position = { page: pagination.page + 1 };
    }
  }
}
