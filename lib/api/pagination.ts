import type { OffsetPage } from "@/db/queries/rows";

/** Page-based pagination block; an unpaged list is reported as one page holding everything. */
export function pagePagination(page: number, limit: number, total: number) {
  return { page, limit, total, hasMore: page * limit < total };
}

export function wholeList(total: number) {
  return { page: 1, limit: total, total, hasMore: false };
}

/** The page a page-based list asks for (the queries' own type). */
export type Page = OffsetPage;

/** The page a page-based list query asks for: the first unless `page` says otherwise, of the list's default size unless `limit` does. */
export function pageOf(query: { page?: number; limit?: number }, defaultLimit: number): Page {
  return { page: query.page ?? 1, limit: query.limit ?? defaultLimit };
}

/** A page-based list's answer: the page's rows and where the page stands among `total` rows. */
export function pageList<T>(data: T[], page: Page, total: number) {
  return { data, pagination: pagePagination(page.page, page.limit, total) };
}

/** An unpaged list's answer: every row, as one page. */
export function wholeListOf<T>(data: T[]) {
  return { data, pagination: wholeList(data.length) };
}

/** A cursor-paged list's answer: the cursor of the next page, encoded, or null on the last page. */
export function cursorList<T, C>(data: T[], limit: number, nextCursor: C | null, encode: (cursor: C) => string) {
  return { data, pagination: { limit, nextCursor: nextCursor ? encode(nextCursor) : null } };
}
