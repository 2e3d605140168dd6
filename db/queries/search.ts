import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** `%`, `_` and `\` taken literally in a LIKE pattern (backslash is the escape character). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Case-insensitive "contains `q`" over the given text expressions (any of them matches).
 * The search text is a bound parameter with LIKE's wildcards escaped, so `50%` finds "50%".
 */
export function containsAny(q: string, exprs: SQLWrapper[]): SQL {
  const pattern = `%${escapeLike(q)}%`;
  return sql`(${sql.join(
    exprs.map((e) => sql`${e} ilike ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}
