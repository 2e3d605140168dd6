/** The SQLSTATE of a database error, looking through drizzle's wrapper (`cause`). */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => pgErrorCode(err) === "23505";

/** The constraint (or unique index) a database error names, looking through drizzle's wrapper. */
export function pgConstraint(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    // postgres.js calls it constraint_name; PGlite, constraint.
    const name = (e as { constraint_name?: unknown }).constraint_name ?? (e as { constraint?: unknown }).constraint;
    if (typeof name === "string") return name;
  }
  return undefined;
}

/** A unique violation of the organizations' custom domain: another organization has it. */
export const isCustomDomainTaken = (err: unknown) => isUniqueViolation(err) && pgConstraint(err) === "organizations_custom_domain_key";

/** Connection-level failures: the database is down or restarting, not a bug in the request. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = pgErrorCode(err);
  if (code && (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300")) {
    return true;
  }
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const c = (e as { code?: unknown }).code;
    if (
      c === "ECONNREFUSED" ||
      c === "ECONNRESET" ||
      c === "CONNECTION_CLOSED" ||
      c === "CONNECTION_ENDED" ||
      c === "CONNECT_TIMEOUT" ||
      c === "CONNECTION_DESTROYED"
    )
      return true;
  }
  return false;
}
