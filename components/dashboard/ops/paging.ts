import { one } from "./dates";

/** A page-based list's page, from its `page` query parameter: a whole number from 1 to 1,000,000, else 1. */
export function pageFrom(raw: string | string[] | undefined): number {
  const n = Number.parseInt(one(raw), 10);
  return Number.isFinite(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

/** The URL of page `n` of the list at `base`, keeping its filters (`keep`); page 1 has no `page` parameter. */
export function pageHref(base: string, keep?: Record<string, string> | URLSearchParams) {
  return (n: number) => {
    const p = new URLSearchParams(keep);
    if (n > 1) p.set("page", String(n));
    return p.size ? `${base}?${p}` : base;
  };
}

/** A query parameter's value when it is one of `values`, else null. */
export function oneOf<S extends string>(values: readonly S[], raw: string | string[] | undefined): S | null {
  const v = one(raw);
  return (values as readonly string[]).includes(v) ? (v as S) : null;
}

/** How many rows there are of each status, from a `count() … group by status` query, and of all. */
export function statusCounts<S extends string>(byStatus: { status: S; n: number }[]): { counts: Partial<Record<S, number>>; all: number } {
  const counts = Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)])) as Partial<Record<S, number>>;
  return { counts, all: byStatus.reduce((s, r) => s + Number(r.n), 0) };
}
