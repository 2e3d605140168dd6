import { z } from "zod";

/**
 * Session JWTs may carry two claims beyond `sub`, `email` and `name` (contract section 16):
 *
 * - `sid`: the `user_sessions` row the token belongs to. A revoked row makes every token with
 *   that `sid` answer 401, on the API and on the dashboard. Tokens without `sid` (issued by
 *   `npm run token`, or before sessions had rows) keep working until they expire.
 * - `twoFactorAt`: unix seconds when the session last passed a second factor.
 */
export const sessionClaimsSchema = z.object({
  sid: z.string().min(1).max(100).optional(),
  twoFactorAt: z.number().int().positive().optional(),
});

export type SessionState = { sid: string | null; twoFactorAt: number | null };

/** The session claims of a decoded token; malformed ones count as absent. */
export function sessionStateOf(claims: unknown): SessionState {
  const parsed = sessionClaimsSchema.safeParse(claims ?? {});
  return parsed.success ? { sid: parsed.data.sid ?? null, twoFactorAt: parsed.data.twoFactorAt ?? null } : { sid: null, twoFactorAt: null };
}
