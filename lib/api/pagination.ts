/** Page-based pagination block; an unpaged list is reported as one page holding everything. */
export function pagePagination(page: number, limit: number, total: number) {
  return { page, limit, total, hasMore: page * limit < total };
}

export function wholeList(total: number) {
  return { page: 1, limit: total, total, hasMore: false };
}
