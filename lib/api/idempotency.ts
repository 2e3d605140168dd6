import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import type { Actor } from "@/lib/actor";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secrets";
import { errorFields, log } from "@/lib/log";
import { readRawBody } from "./body";
import { ApiError, validationError } from "./errors";

/*
 * Idempotency-Key on POST requests (Stripe's convention). The first request with a key claims a
 * row (`running`) with `INSERT … ON CONFLICT DO NOTHING`, runs with no transaction held open,
 * then stores its answer (`done`, body encrypted: it may show a secret once). A repeat by the
 * same caller with the same method, path and body gets that answer again, marked
 * `Idempotent-Replayed: true`; the same key on a different request is refused (422), and a
 * repeat while the first still runs gets 409. Rows live 24 hours (the worker sweeps them).
 *
 * What is kept: every answer the handler gives below 500, except 429 (a rate limit is about
 * that moment, not the request). A 5xx or a throw that maps to one deletes the claim, so a
 * retry runs again. Authentication, rate limits, authorization and body validation come before
 * the claim: their refusals are never stored, and a replay is checked (and counted) again. So
 * does a route's own proof of its caller (`verify`: the processor webhook's signature), so an
 * unauthenticated flood of fresh keys on a route without a rate limit writes no rows.
 */

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
export const MAX_KEY_LENGTH = 255;
/** How long an answer is kept and replayed. */
export const RETENTION_HOURS = 24;
/** A claim still `running` after this long was left by a process that died: the next request takes it over. */
export const STALE_CLAIM_MINUTES = 5;

/** Headers replayed with a stored answer (the wrapper adds request ID, rate-limit and security headers afresh). */
const KEPT_HEADERS = ["content-type", "location"];

export type IdempotentRequest = { caller: string; key: string; method: string; path: string; requestHash: string };

/** The caller a key belongs to: the person, the API key, or (public calls) the client's address. */
export function idempotencyCaller(actor: Actor | null, clientIp: string): string {
  if (actor?.type === "user") return `user:${actor.id}`;
  if (actor?.type === "api_key") return `key:${actor.id}`;
  return `ip:${clientIp}`;
}

/**
 * The request's Idempotency-Key and what identifies the request (method, path with query, a
 * SHA-256 of the body's bytes), or null without the header. An empty key or one longer than
 * 255 characters is a 400 on the header. Reads the body from a clone (the request's own body
 * is left for the handler), unless the caller already read it (`rawBody`).
 */
export async function idempotentRequestOf(req: Request, rawBody?: Uint8Array): Promise<Omit<IdempotentRequest, "caller"> | null> {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    const [message, code] =
      key.length === 0
        ? ["Must not be empty", { code: "too_small", origin: "string", minimum: 1, inclusive: true }]
        : [`Must be at most ${MAX_KEY_LENGTH} characters`, { code: "too_big", origin: "string", maximum: MAX_KEY_LENGTH, inclusive: true }];
    throw validationError({ [IDEMPOTENCY_HEADER]: [message] }, [], { [IDEMPOTENCY_HEADER]: [code] });
  }
  const url = new URL(req.url);
  const body = rawBody ?? (req.body ? await readRawBody(req.clone()) : new Uint8Array());
  const requestHash = createHash("sha256").update(body).digest("hex");
  return { key, method: req.method, path: url.pathname + url.search, requestHash };
}

type Claim = { owned: true; id: number } | { owned: false; replay: Response };

const olderThan = (amount: string) => lt(idempotencyKeys.createdAt, sql`now() - ${amount}::interval`);

/**
 * Claims `request`'s key for this run, or settles the request without running it: the stored
 * answer (replayed), 409 while another run holds the key, 422 when the key was used for a
 * different request. Takes over a claim left running past STALE_CLAIM_MINUTES and a row past
 * its retention that the worker has not swept yet.
 */
export async function claimIdempotencyKey(db: Db, request: IdempotentRequest): Promise<Claim> {
  const { caller, key, method, path, requestHash } = request;
  // A row can vanish between the insert and the read (its run failed and released it): try again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({ caller, key, method, path, requestHash, state: "running" })
      .onConflictDoNothing({ target: [idempotencyKeys.caller, idempotencyKeys.key] })
      .returning({ id: idempotencyKeys.id });
    if (inserted) return { owned: true, id: inserted.id };

    const [row] = await db
      .select({
        id: idempotencyKeys.id,
        method: idempotencyKeys.method,
        path: idempotencyKeys.path,
        requestHash: idempotencyKeys.requestHash,
        state: idempotencyKeys.state,
        responseStatus: idempotencyKeys.responseStatus,
        responseHeaders: idempotencyKeys.responseHeaders,
        responseBody: idempotencyKeys.responseBody,
        expired: sql<boolean>`${idempotencyKeys.createdAt} < now() - ${`${RETENTION_HOURS} hours`}::interval`,
        stale: sql<boolean>`${idempotencyKeys.createdAt} < now() - ${`${STALE_CLAIM_MINUTES} minutes`}::interval`,
      })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.key, key)));
    if (!row) continue;

    if (row.expired) {
      // Past retention: the key is free again, for any request.
      const taken = await takeOver(db, row.id, request, olderThan(`${RETENTION_HOURS} hours`));
      if (taken) return taken;
      continue;
    }
    if (row.method !== method || row.path !== path || row.requestHash !== requestHash) {
      throw new ApiError(422, "Idempotency key was used with a different request");
    }
    if (row.state !== "done") {
      const taken = row.stale
        ? await takeOver(db, row.id, request, and(eq(idempotencyKeys.state, "running"), olderThan(`${STALE_CLAIM_MINUTES} minutes`)))
        : null;
      if (taken) return taken;
      throw new ApiError(409, "A request with this idempotency key is in progress");
    }
    return { owned: false, replay: replayOf(row.id, row.responseStatus!, row.responseHeaders ?? {}, row.responseBody) };
  }
  throw new ApiError(409, "A request with this idempotency key is in progress");
}

/** Re-claims a row for this run while `condition` still holds (another request may win it first). */
async function takeOver(db: Db, id: number, request: IdempotentRequest, condition: ReturnType<typeof and>): Promise<Claim | null> {
  const [row] = await db
    .update(idempotencyKeys)
    .set({
      method: request.method,
      path: request.path,
      requestHash: request.requestHash,
      state: "running",
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      createdAt: sql`now()`,
      completedAt: null,
    })
    .where(and(eq(idempotencyKeys.id, id), condition))
    .returning({ id: idempotencyKeys.id });
  return row ? { owned: true, id: row.id } : null;
}

/** The stored body is bound to its row, so a ciphertext copied into another row does not decrypt there. */
const aadOf = (id: number) => `idempotency_keys:${id}`;

function replayOf(id: number, status: number, headers: Record<string, string>, body: string | null): Response {
  const text = body === null ? null : decryptSecret(body, { aad: aadOf(id) });
  const nullBody = status === 204 || status === 205 || status === 304;
  return new Response(nullBody ? null : text, { status, headers: { ...headers, [REPLAYED_HEADER]: "true" } });
}

/** Whether an answer is kept for replays: everything below 500 but a rate limit's 429. */
export function isStoredStatus(status: number): boolean {
  return status < 500 && status !== 429;
}

/**
 * Runs `run` under `request`'s key: once per key (see claimIdempotencyKey), storing the answer
 * or, for a 5xx, releasing the key. `run` must answer errors as responses (not throw) so they
 * can be stored; a throw still releases the key. The caller's Response is rebuilt from the read
 * body, with the same status and headers.
 */
export async function runIdempotently(db: Db, request: IdempotentRequest, run: () => Promise<Response>): Promise<Response> {
  const claim = await claimIdempotencyKey(db, request);
  if (!claim.owned) return claim.replay;
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    await releaseClaim(db, claim.id);
    throw err;
  }
  if (!isStoredStatus(response.status)) {
    await releaseClaim(db, claim.id);
    return response;
  }
  const text = response.body ? await response.text() : null;
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) kept[name] = value;
  }
  try {
    await db
      .update(idempotencyKeys)
      .set({
        state: "done",
        responseStatus: response.status,
        responseHeaders: kept,
        responseBody: text === null ? null : encryptSecret(text, { aad: aadOf(claim.id) }),
        completedAt: sql`now()`,
      })
      .where(and(eq(idempotencyKeys.id, claim.id), eq(idempotencyKeys.state, "running")));
  } catch (err) {
    // The answer stands; the claim goes stale and a later retry takes it over.
    log.error("idempotency: storing the answer failed", { caller: request.caller, ...errorFields(err) });
  }
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Frees a claim whose run failed, so a retry runs again. Never throws: the run's own answer matters more. */
async function releaseClaim(db: Db, id: number): Promise<void> {
  try {
    await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "running")));
  } catch (err) {
    log.error("idempotency: releasing a claim failed", errorFields(err));
  }
}

/** Deletes keys past their retention (answers and abandoned claims alike); answers how many. */
export async function sweepIdempotencyKeys(db: Db): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(olderThan(`${RETENTION_HOURS} hours`))
    .returning({ id: idempotencyKeys.id });
  return deleted.length;
}
