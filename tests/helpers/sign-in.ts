import { createRequire } from "node:module";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { AuthOptions } from "next-auth";
import { outbox } from "@/db/schema";
import { getAuthOptions } from "@/lib/auth/options";
import { testDb } from "./db";

type Cookie = { name: string; value: string };
type HandlerResult<B> = { status?: number; body?: B; redirect?: string; cookies?: Cookie[] };
type RequestInternal = Record<string, unknown>;
/**
 * next-auth's framework-neutral request handler (what its Next.js route handler calls after
 * reading the body, cookies and headers). Not in the package's exports map, so loaded by path.
 */
const { AuthHandler } = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/index.js")) as {
  AuthHandler: <B>(params: { req: RequestInternal; options: AuthOptions }) => Promise<HandlerResult<B>>;
};

/**
 * Asks for a sign-in email the way the sign-in page does (next-auth's CSRF round trip, then
 * POST signin/email with `json`), through next-auth's real request handler and our options. The
 * route file adds only the client IP, given here as `ip`. Answers the `error` code the page would
 * show (null: accepted) and, when accepted, the outbox row of the email.
 */
export async function requestSignInLink(
  email: string,
  ip: string,
): Promise<{ error: string | null; outboxId: number | null; redirect: string }> {
  const db = await testDb();
  const options = getAuthOptions({ clientIp: ip });
  const base = { query: {}, headers: { host: "localhost:3000", "content-type": "application/x-www-form-urlencoded" } };
  const csrf = await AuthHandler<{ csrfToken: string }>({ req: { ...base, method: "GET", action: "csrf", cookies: {} }, options });
  const cookie = csrf.cookies?.find((c) => c.name.endsWith("csrf-token"));
  if (!cookie || !csrf.body?.csrfToken) throw new Error("next-auth gave no CSRF token");
  const before = await db.select({ id: sql<number>`coalesce(max(${outbox.id}), 0)` }).from(outbox);
  const res = await AuthHandler({
    req: {
      ...base,
      method: "POST",
      action: "signin",
      providerId: "email",
      body: { email, csrfToken: csrf.body.csrfToken, callbackUrl: "http://localhost:3000/dashboard", json: "true" },
      cookies: { [cookie.name]: cookie.value },
    },
    options,
  });
  const redirect = res.redirect ?? "";
  const error = new URL(redirect).searchParams.get("error");
  const [row] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(sql`${outbox.id} > ${Number(before[0].id)} and ${outbox.kind} = 'email' and ${outbox.payload}->>'to' = ${email.toLowerCase()}`)
    .limit(1);
  return { error, outboxId: row?.id ?? null, redirect };
}

/** The sign-in link in an outbox row's payload (null once purged). */
export async function linkOf(outboxId: number): Promise<string | null> {
  const db = await testDb();
  const [row] = await db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.id, outboxId));
  const props = row?.payload.props as { url?: string } | undefined;
  return props?.url ?? null;
}
