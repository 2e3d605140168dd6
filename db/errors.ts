/** The SQLSTATE of a database error, looking through drizzle's wrapper (`cause`). */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => pgErrorCode(err) === "23505";

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
