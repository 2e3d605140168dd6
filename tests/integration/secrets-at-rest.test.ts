/**
 * Secrets at rest: outbound-webhook signing secrets are stored encrypted (and encrypted at
 * start-up when an older install stored them in clear), a wrong SECRETS_ENCRYPTION_KEY signs
 * nothing, and a dump of the database holds no usable secret: no webhook secret, no sign-in link
 * or token, no NEXTAUTH_SECRET or SECRETS_ENCRYPTION_KEY. On Postgres the dump is pg_dump's; on
 * PGlite (no pg_dump) it is every row of every table as text, which is what a dump holds.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { outbox, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { decryptSecret, isEncryptedSecret } from "@/lib/crypto/secrets";
import { getEnv, resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { encryptStoredWebhookSecrets, webhookSecretsKeyMatches } from "@/lib/services/webhooks/encrypt-stored-secrets";
import { newWebhookSecret, openWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";
import { newOrg, patch, post } from "../helpers/api";
import { testDb } from "../helpers/db";
import { databaseDump } from "../helpers/dump";
import { linkOf, requestSignInLink } from "../helpers/sign-in";

const saved = { ...process.env };
const KEYS = ["ALLOW_PRIVATE_WEBHOOK_URLS", "SECRETS_ENCRYPTION_KEY", "RESEND_API_KEY", "RESEND_BASE_URL"] as const;
function setEnv(values: Partial<Record<(typeof KEYS)[number], string | undefined>>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}
afterEach(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
});

const uid = () => randomBytes(5).toString("hex");

// One local HTTP server: webhook receiver on /hooks/*, Resend stand-in on /emails.
type Received = { path: string; headers: IncomingHttpHeaders; body: string };
const local = { server: undefined as Server | undefined, url: "", received: [] as Received[] };
beforeAll(async () => {
  await testDb();
  local.server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      local.received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(req.url === "/emails" ? JSON.stringify({ id: `re_${uid()}` }) : "{}");
    });
  });
  await new Promise<void>((r) => local.server!.listen(0, "127.0.0.1", r));
  local.url = `http://127.0.0.1:${(local.server!.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (local.server ? local.server.close(() => r()) : r())));

async function endpointRow(id: string) {
  const db = await testDb();
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

/** Queues a `webhook.test` event to the endpoint and runs the worker for the organization. */
async function pingAndDeliver(org: { id: string }, endpointId: string, token: string) {
  const res = await post(`/api/orgs/${org.id}/webhook-endpoints/${endpointId}/test`, {}, { token });
  expect(res.status, res.text).toBe(202);
  await runWorkerOnce(await testDb(), { orgIds: [org.id] });
}

describe("webhook signing secrets at rest", () => {
  it("POST /api/orgs/:idOrSlug/webhook-endpoints answers the secret once and stores it encrypted, bound to the endpoint", async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_URLS: "1" });
    const { owner, org } = await newOrg();
    const created = await post(`/api/orgs/${org.id}/webhook-endpoints`, { url: `${local.url}/hooks/${uid()}` }, { token: owner.token });
    expect(created.status, created.text).toBe(201);
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^whsec_/);
    const row = await endpointRow(created.body.id);
    expect(isEncryptedSecret(row.encryptedSecret)).toBe(true);
    expect(row.encryptedSecret).not.toContain(secret.slice(6));
    expect(decryptSecret(row.encryptedSecret, { aad: `webhook_endpoints.secret:${row.id}` })).toBe(secret);

    // Deliveries are signed with the clear secret.
    await pingAndDeliver(org, row.id, owner.token);
    const got = local.received.filter((r) => r.path === new URL(created.body.url).pathname);
    expect(got).toHaveLength(1);
    expect(() => new Webhook(secret).verify(got[0].body, got[0].headers as Record<string, string>)).not.toThrow();
  });

  it("start-up encrypts secrets stored in clear, each row once even with several instances at once; deliveries still verify", async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_URLS: "1" });
    const { owner, org } = await newOrg();
    const db = await testDb();
    const legacy = Array.from({ length: 7 }, () => ({ id: `we_legacy${uid()}`, secret: newWebhookSecret(), path: `/hooks/${uid()}` }));
    // As an older version stored them: the secret itself in the column.
    await db
      .insert(webhookEndpoints)
      .values(legacy.map((l) => ({ id: l.id, orgId: org.id, url: `${local.url}${l.path}`, encryptedSecret: l.secret })));

    const counts = await Promise.all([encryptStoredWebhookSecrets(db), encryptStoredWebhookSecrets(db), encryptStoredWebhookSecrets(db)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(legacy.length);
    expect(await encryptStoredWebhookSecrets(db)).toBe(0);
    const rows = await db
      .select()
      .from(webhookEndpoints)
      .where(
        inArray(
          webhookEndpoints.id,
          legacy.map((l) => l.id),
        ),
      );
    for (const l of legacy) {
      const row = rows.find((r) => r.id === l.id)!;
      expect(isEncryptedSecret(row.encryptedSecret)).toBe(true);
      expect(openWebhookSecret(row)).toBe(l.secret);
    }
    expect(await webhookSecretsKeyMatches(db)).toBe(true);

    await pingAndDeliver(org, legacy[0].id, owner.token);
    const got = local.received.filter((r) => r.path === legacy[0].path);
    expect(got).toHaveLength(1);
    expect(() => new Webhook(legacy[0].secret).verify(got[0].body, got[0].headers as Record<string, string>)).not.toThrow();
  });

  it("with a wrong SECRETS_ENCRYPTION_KEY nothing is sent: the attempt is logged, retried later, and not held against the endpoint", async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_URLS: "1" });
    const { owner, org } = await newOrg();
    const created = await post(`/api/orgs/${org.id}/webhook-endpoints`, { url: `${local.url}/hooks/${uid()}` }, { token: owner.token });
    expect(created.status).toBe(201);

    setEnv({ SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("base64") });
    const db = await testDb();
    expect(await webhookSecretsKeyMatches(db)).toBe(false);
    await pingAndDeliver(org, created.body.id, owner.token);
    expect(local.received.filter((r) => r.path === new URL(created.body.url).pathname)).toHaveLength(0);
    const log = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, created.body.id));
    expect(log.map((d) => d.error)).toEqual(["Signing secret could not be decrypted (check SECRETS_ENCRYPTION_KEY); not sent"]);
    const [row] = await db
      .select()
      .from(outbox)
      .where(sql`${outbox.orgId} = ${org.id} and ${outbox.kind} = 'webhook'`);
    expect(row.status).toBe("PENDING");
    expect(row.lastError).toMatch(/SECRETS_ENCRYPTION_KEY/);
    expect((await endpointRow(created.body.id)).failingSince).toBeNull();

    // Rotating writes a secret under the configured key: deliveries work again.
    const rotated = await patch(`/api/orgs/${org.id}/webhook-endpoints/${created.body.id}`, { rotateSecret: true }, { token: owner.token });
    expect(rotated.status).toBe(200);
    expect(openWebhookSecret(await endpointRow(created.body.id))).toBe(rotated.body.secret);
  });
});

describe("a dump of the database", () => {
  it("holds no webhook secret, no sign-in link or token, no NEXTAUTH_SECRET and no SECRETS_ENCRYPTION_KEY", async () => {
    setEnv({ ALLOW_PRIVATE_WEBHOOK_URLS: "1" });
    const db = await testDb();
    const env = getEnv();
    const { owner, org } = await newOrg();
    const path = `/hooks/${uid()}`;

    // Webhook endpoints through the API, one secret rotated (the old one must be gone too).
    const secrets: string[] = [];
    const ids: string[] = [];
    for (const p of [path, `/hooks/${uid()}`]) {
      const res = await post(`/api/orgs/${org.id}/webhook-endpoints`, { url: `${local.url}${p}` }, { token: owner.token });
      expect(res.status, res.text).toBe(201);
      secrets.push(res.body.secret);
      ids.push(res.body.id);
    }
    const rotated = await patch(`/api/orgs/${org.id}/webhook-endpoints/${ids[0]}`, { rotateSecret: true }, { token: owner.token });
    secrets.push(rotated.body.secret);
    await pingAndDeliver(org, ids[0], owner.token);
    const delivered = local.received.filter((r) => r.path === path);
    expect(delivered).toHaveLength(1);
    expect(() => new Webhook(rotated.body.secret).verify(delivered[0].body, delivered[0].headers as Record<string, string>)).not.toThrow();

    // Sign-in links: one sent through the local-only path (no Resend key), one through Resend.
    const emails = [`dump-local-${uid()}@example.org`, `dump-resend-${uid()}@example.org`];
    const links: string[] = [];
    const outboxIds: number[] = [];
    for (const [i, email] of emails.entries()) {
      if (i === 1) setEnv({ RESEND_API_KEY: "re_dump_test", RESEND_BASE_URL: local.url });
      const res = await requestSignInLink(email, `203.0.113.${1 + i}`);
      expect(res.error).toBeNull();
      links.push((await linkOf(res.outboxId!))!);
      outboxIds.push(res.outboxId!);
      await runWorkerOnce(db, { ids: [res.outboxId!] });
    }
    setEnv({ RESEND_API_KEY: undefined, RESEND_BASE_URL: undefined });
    if (env.embedded) {
      // A local sandbox install keeps an unexpired link for its /sandbox/mailbox page (the data
      // directory holds the keys beside it anyway); once expired, the worker purges it too.
      await db.execute(sql`update ${outbox} set created_at = now() - interval '61 minutes' where id = ${outboxIds[0]}`);
      await runWorkerOnce(db, { ids: [] });
    }
    const sent = await db.select().from(outbox).where(inArray(outbox.id, outboxIds));
    expect(sent.map((r) => r.status)).toEqual(["SENT", "SENT"]);
    const tokens = links.map((l) => new URL(l).searchParams.get("token")!);
    expect(tokens.every((t) => /^[0-9a-f]{64}$/.test(t))).toBe(true);

    const dump = await databaseDump(["webhook_endpoints", "outbox", "verification_tokens", "users"]);
    // The dump does hold this test's rows (so the checks below look in the right place)...
    for (const present of [...ids, org.id, ...emails, "enc:v1:"]) expect(dump, present).toContain(present);
    // ...but nothing usable.
    const key = env.secretsKey;
    const forbidden: [string, string][] = [
      ...secrets.flatMap((s, i): [string, string][] => [
        [`webhook secret ${i}`, s],
        [`webhook secret ${i} (key part)`, s.slice("whsec_".length)],
      ]),
      ...links.map((l, i): [string, string] => [`sign-in link ${i}`, l]),
      ...tokens.map((t, i): [string, string] => [`sign-in token ${i}`, t]),
      ["NEXTAUTH_SECRET", env.nextAuthSecret],
      ["SECRETS_ENCRYPTION_KEY", process.env.SECRETS_ENCRYPTION_KEY!],
      ["the encryption key (base64)", key.toString("base64")],
      ["the encryption key (base64url)", key.toString("base64url")],
      ["the encryption key (hex)", key.toString("hex")],
    ];
    for (const [what, value] of forbidden) {
      expect(value.length, what).toBeGreaterThanOrEqual(32);
      expect(dump.includes(value), `${what} found in the dump`).toBe(false);
    }
  });
});

/**
 * Postgres: `pg_dump` of the test database (schema and data, as a backup would be), plus every
 * row as text. PGlite: every row of every table as text (row-to-text covers every column of every
 * type: text, jsonb, arrays).
 */
