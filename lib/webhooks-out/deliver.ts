import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/db";
import { webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookEndpoint } from "@/db/schema";
import type { OutboxRecord } from "@/lib/outbox/types";
import { getEnv } from "@/lib/env";
import { webhookDeliveriesCounter } from "@/lib/metrics";
import { newId } from "@/lib/ids";
import { SecretDecryptionError } from "@/lib/crypto/secrets";
import { openWebhookSecret } from "./endpoint-secret";
import { resolveTarget, UnsafeUrlError, type ResolvedTarget } from "./ssrf";
import type { WebhookOutboxPayload } from "./emit";

/** Each attempt, from connecting to the end of the excerpt, gets this long. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
export const DISABLED_REASON = "Deliveries failed continuously for 5 days";
const EXCERPT_BYTES = 1024;
const SECRET_UNREADABLE = "Signing secret could not be decrypted (check SECRETS_ENCRYPTION_KEY); not sent";
const USER_AGENT = "Goodfund-Webhooks/1";

type Attempt = { statusCode: number | null; error: string | null; latencyMs: number | null; responseBody: string | null };

/**
 * The worker's sender for outbox rows of kind `webhook` (one event to one endpoint). Runs after
 * commit, outside any transaction. Every attempt is written to the delivery log; a failure
 * throws, so the worker retries it with its backoff (first retry within 30 s, the last about
 * three days after the first).
 *
 * Rows that can no longer be sent finish without sending (the worker marks them SENT with the
 * returned note): the endpoint was deleted, or it is disabled. A disabled endpoint's queued
 * events are dropped rather than held: re-enabling starts afresh, and each dropped event is in
 * the delivery log, from where an admin can retry it.
 *
 * A signing secret that does not decrypt (SECRETS_ENCRYPTION_KEY is not the key it was stored
 * with) sends nothing: the attempt is logged and the row retried, without counting against the
 * endpoint, since the fault is the server's configuration, not the receiver.
 */
export async function deliverWebhook(row: OutboxRecord, { db }: { db: Db }): Promise<void | { skipped: string }> {
  const { eventId, endpointId } = row.payload as Partial<WebhookOutboxPayload>;
  const [endpoint] = endpointId ? await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)) : [];
  if (!endpoint) return { skipped: "endpoint deleted; not sent" };
  const [event] = eventId ? await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)) : [];
  if (!event || event.orgId !== endpoint.orgId) return { skipped: "event gone; not sent" };
  const log = (attempt: Attempt) =>
    db
      .insert(webhookDeliveries)
      .values({ id: newId("whd"), endpointId: endpoint.id, eventId: event.id, attempt: row.attempts, ...attempt });

  if (!endpoint.enabled) {
    await log({ statusCode: null, error: "Endpoint disabled; not sent", latencyMs: null, responseBody: null });
    webhookDeliveriesCounter().inc({ result: "skipped" });
    return { skipped: "endpoint disabled; not sent" };
  }

  let secret: string;
  try {
    secret = openWebhookSecret(endpoint);
  } catch (err) {
    if (!(err instanceof SecretDecryptionError)) throw err;
    await log({ statusCode: null, error: SECRET_UNREADABLE, latencyMs: null, responseBody: null });
    throw new Error(SECRET_UNREADABLE);
  }

  const { id, type, createdAt, data } = event.payload;
  const body = JSON.stringify({ id, type, createdAt, data });
  const attempt = await send(endpoint, secret, event.id, body);
  await log(attempt);
  const delivered = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  webhookDeliveriesCounter().inc({ result: delivered ? "success" : "failure" });
  if (delivered) {
    await db
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(eq(webhookEndpoints.id, endpoint.id), isNotNull(webhookEndpoints.failingSince)));
    return;
  }
  await recordFailure(db, endpoint.id);
  throw new Error(attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? "delivery failed"));
}

/**
 * Marks the endpoint failing since now (unless it already was), and disables it when it has been
 * failing for five days: one statement, so concurrent failures agree.
 */
async function recordFailure(db: Db, endpointId: string): Promise<void> {
  const expired = sql`${webhookEndpoints.failingSince} <= now() - ${`${DISABLE_AFTER_FAILING_MS / 1000} seconds`}::interval`;
  await db
    .update(webhookEndpoints)
    .set({
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, now())`,
      enabled: sql`case when ${expired} then false else ${webhookEndpoints.enabled} end`,
      disabledReason: sql`case when ${expired} and ${webhookEndpoints.enabled} then ${DISABLED_REASON} else ${webhookEndpoints.disabledReason} end`,
      updatedAt: sql`case when ${expired} and ${webhookEndpoints.enabled} then now() else ${webhookEndpoints.updatedAt} end`,
    })
    .where(eq(webhookEndpoints.id, endpointId));
}

/** One signed POST of `body` to the endpoint, never throwing: the outcome is the delivery-log row. */
async function send(endpoint: WebhookEndpoint, secret: string, msgId: string, body: string): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const allowPrivate = getEnv().ALLOW_PRIVATE_WEBHOOK_URLS;
  let url: URL;
  let target: ResolvedTarget;
  try {
    url = new URL(endpoint.url);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && allowPrivate)) {
      throw new UnsafeUrlError("Refused: only https URLs are allowed");
    }
    target = await resolveTarget(url.hostname, { allowPrivate });
  } catch (err) {
    return { statusCode: null, error: describe(err), latencyMs: null, responseBody: null };
  }
  const timestamp = new Date();
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "user-agent": USER_AGENT,
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(msgId, timestamp, body),
  };
  try {
    const { statusCode, excerpt } = await post(url, target, headers, body);
    return { statusCode, error: null, latencyMs: elapsed(), responseBody: excerpt };
  } catch (err) {
    return { statusCode: null, error: describe(err), latencyMs: elapsed(), responseBody: null };
  }
}

/**
 * POSTs to the address that was checked, never to a fresh resolution of the host name (which
 * could answer a private address the second time: DNS rebinding). The URL keeps its host name,
 * so the Host header, TLS SNI and certificate check are as usual. No connection pooling (a pooled
 * socket could belong to another address) and no redirects (Node's client follows none).
 */
function post(
  url: URL,
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
): Promise<{ statusCode: number; excerpt: string }> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === "https:" ? https : http;
  const auth = url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: "POST",
      headers,
      auth,
      agent: false,
      lookup,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    req.on("error", (err) => reject(err.name === "AbortError" ? new Error(`Timed out after ${DELIVERY_TIMEOUT_MS / 1000} s`) : err));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const excerpt = Buffer.concat(chunks)
          .subarray(0, EXCERPT_BYTES)
          .toString("utf8")
          .replace(/\u0000/g, "");
        resolve({ statusCode: res.statusCode ?? 0, excerpt });
        res.destroy();
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) finish();
      });
      res.on("end", finish);
      // Cut short (timeout, reset) after the status line: the status stands, with what came of the body.
      res.on("error", finish);
      res.on("close", finish);
    });
    req.end(body);
  });
}

function describe(err: unknown): string {
  if (err instanceof UnsafeUrlError) return err.message;
  const e = err as NodeJS.ErrnoException;
  const text = e instanceof Error ? (e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message) : String(err);
  return text.replace(/\s+/g, " ").slice(0, 300);
}
