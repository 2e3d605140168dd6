import { usesSecureCookies } from "./session";

/**
 * The `Set-Cookie` value that puts a session JWT in next-auth's session cookie (its documented
 * default name and attributes: `next-auth.session-token`, `__Secure-` prefixed and Secure on
 * https; HttpOnly, SameSite=Lax, Path=/). Used when the dashboard's own session passes a second
 * factor through the API, so its cookie carries `twoFactorAt` from the next request on.
 */
export function sessionCookie(token: string, expiresAt: Date): string {
  const secure = usesSecureCookies();
  return [
    `${secure ? "__Secure-" : ""}next-auth.session-token=${token}`,
    "Path=/",
    `Expires=${expiresAt.toUTCString()}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
