import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

/** An optional value: unset or empty means undefined (the consumer's own default). */
const unsetOr = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: optionalString,
  GOODFUND_DATA_DIR: optionalString,
  PGLITE_DIR: optionalString,
  DATABASE_POOL_SIZE: positiveInt(10),
  DATABASE_NO_PREPARE: flag,
  NEXTAUTH_SECRET: optionalString,
  NEXTAUTH_URL: optionalString,
  APP_URL: optionalString,
  PORT: positiveInt(3000),
  SESSION_MAX_AGE_SECONDS: positiveInt(3600),
  GITHUB_ID: optionalString,
  GITHUB_SECRET: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Single sign-on through any OpenID Connect provider: its issuer URL (discovery at `/.well-known/openid-configuration`). */
  OIDC_ISSUER: optionalString.pipe(z.string().url("Must be the provider's issuer URL").optional()),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /** The button's label: "Continue with <name>". */
  OIDC_NAME: optionalString,
  /** Number of trusted proxies in front of the app (0: use the socket address). "true" means 1. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const t = (v ?? "").trim().toLowerCase();
      if (t === "" || t === "0" || t === "false") return 0;
      if (t === "true") return 1;
      const n = Number(t);
      if (!Number.isInteger(n) || n < 0 || n > 32) {
        ctx.addIssue({ code: "custom", message: "Must be a number of trusted proxies (0-32)" });
        return z.NEVER;
      }
      return n;
    }),
  RATE_LIMIT_PUBLIC_PER_MINUTE: positiveInt(100),
  RATE_LIMIT_AUTHENTICATED_PER_MINUTE: positiveInt(600),
  RATE_LIMIT_BACKEND: z.enum(["upstash", "redis", "memory"]).optional(),
  REDIS_URL: optionalString,
  UPSTASH_REDIS_REST_URL: optionalString,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  PAYMENTS_MODE: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.enum(["stripe", "sandbox"]).optional()),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_API_HOST: optionalString,
  PROCESSOR_WEBHOOK_SECRET: optionalString,
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  RESEND_API_KEY: optionalString,
  RESEND_BASE_URL: optionalString,
  EMAIL_FROM: z.string().default("Goodfund <no-reply@goodfund.local>"),
  /** Bearer secret of the cron routes; at least 32 characters (checked in getEnv, which names it). */
  CRON_SECRET: optionalString,
  WORKER_DISABLED: flag,
  SEED_DEMO: z.enum(["1", "0", "true", "false", ""]).optional(),
  /** The share of the demo's year of gifts to play (1: about 3,200 gifts; the browser tests use less). */
  DEMO_HISTORY_SCALE: z.coerce.number().gt(0).max(1).default(0.5),
  ALLOW_PRIVATE_WEBHOOK_URLS: flag,
  SECRETS_ENCRYPTION_KEY: optionalString,
  TICKET_HOLD_MINUTES: positiveInt(30),
  ABANDONED_AFTER_HOURS: positiveInt(24),
  ABANDONED_REMINDER_MINUTES: positiveInt(60),
  /** How often the worker reconciles with the payment processor (missed events, unsettled payments). */
  RECONCILE_EVERY_MINUTES: positiveInt(15),
  /** How long a payment may stay PENDING before reconciliation asks the processor about it. */
  RECONCILE_PENDING_AFTER_MINUTES: positiveInt(60),
  FAILED_PAYMENTS_LIMIT: positiveInt(5),
  FAILED_PAYMENTS_WINDOW_MINUTES: positiveInt(60),
  SIGNIN_LINKS_PER_IP: positiveInt(10),
  SIGNIN_LINKS_IP_WINDOW_MINUTES: positiveInt(15),
  /** Donor account sign-in links: requests per client IP, and emails per organization and address, per window. */
  DONOR_SIGNIN_LINKS_PER_IP: positiveInt(10),
  DONOR_SIGNIN_LINKS_PER_ADDRESS: positiveInt(5),
  DONOR_SIGNIN_WINDOW_MINUTES: positiveInt(15),
  /**
   * The DNS servers custom-domain verification asks for its TXT record: comma-separated IP
   * addresses with optional ports (`1.1.1.1`, `10.0.0.2:53`, `[2606:4700::1111]:53`); unset: the system's.
   */
  DNS_RESOLVERS: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const servers = v.split(",").map((s) => s.trim());
    const bad = servers.filter((s) => !isResolverAddress(s));
    if (bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `Must be comma-separated IP addresses with optional ports (1.1.1.1, 10.0.0.2:53, [2606:4700::1111]:53); not ${bad.map((b) => JSON.stringify(b)).join(", ")}`,
      });
      return z.NEVER;
    }
    return servers;
  }),
  TURNSTILE_SITE_KEY: optionalString,
  TURNSTILE_SECRET_KEY: optionalString,
  TURNSTILE_VERIFY_URL: z.string().url().default("https://challenges.cloudflare.com/turnstile/v0/siteverify"),
  /**
   * Overload shedding in the server (server/overload.ts reads these, after this check): on by
   * default; unset limits are derived from the number of cores there.
   */
  OVERLOAD_SHEDDING: z
    .enum(["1", "0", "true", "false", ""])
    .optional()
    .transform((v) => v !== "0" && v !== "false"),
  OVERLOAD_CONCURRENCY: unsetOr(z.coerce.number().int().positive()),
  OVERLOAD_PRIORITY_CONCURRENCY: unsetOr(z.coerce.number().int().positive()),
  OVERLOAD_REPORTS_CONCURRENCY: unsetOr(z.coerce.number().int().positive()),
  OVERLOAD_QUEUE_MS: unsetOr(z.coerce.number().int().min(0).max(60_000)),
  OVERLOAD_LARGE_BODIES_PER_CLIENT: unsetOr(z.coerce.number().int().positive()),
  OVERLOAD_BODY_BUFFER_MB: unsetOr(z.coerce.number().int().positive()),
  /** `GET /api/ready` answers 503 once the oldest due outbox row has waited longer than this. */
  READY_OUTBOX_MAX_LAG_SECONDS: positiveInt(300),
  /** The bearer token of `GET /api/metrics` (unset: the route does not exist). */
  METRICS_TOKEN: optionalString,
  /** On SIGTERM, how long requests in flight may take to finish before the process exits anyway. */
  SHUTDOWN_GRACE_SECONDS: positiveInt(10),
});

export type Env = z.infer<typeof envSchema> & {
  /** True when no DATABASE_URL is set: PGlite under the data directory, generated secrets. */
  embedded: boolean;
  dataDir: string;
  nextAuthSecret: string;
  appUrl: string;
  /** "stripe" charges real cards through STRIPE_SECRET_KEY; "sandbox" never moves money. */
  paymentsMode: "stripe" | "sandbox";
  /** The 32-byte AES-256-GCM key for secrets stored in the database. */
  secretsKey: Buffer;
};

/** A configuration the server must refuse to start with; the message names the variable. */
export class EnvError extends Error {
  override name = "EnvError";
}

let cached: Env | undefined;

/**
 * Parses process.env once. Fails with one clear message listing every bad variable.
 * In embedded mode a missing NEXTAUTH_SECRET is generated once and kept under the data
 * directory; with a real database (a production deployment) it is required.
 */
export function getEnv(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const embedded = !e.DATABASE_URL;
  const dataDir = path.resolve(/*turbopackIgnore: true*/ e.GOODFUND_DATA_DIR ?? ".data");
  let secret = e.NEXTAUTH_SECRET;
  if (!secret) {
    if (!embedded) {
      throw new EnvError("NEXTAUTH_SECRET is required when DATABASE_URL is set (generate one with `openssl rand -base64 32`).");
    }
    secret = readOrCreateSecret(dataDir, "nextauth-secret");
  }
  if (secret.length < 32) {
    throw new EnvError(
      `NEXTAUTH_SECRET is too short (${secret.length} characters; at least 32 are needed). Generate one with \`openssl rand -base64 32\`.`,
    );
  }
  const paymentsMode = resolvePaymentsMode(e, embedded);
  let rawKey = e.SECRETS_ENCRYPTION_KEY;
  if (!rawKey) {
    if (!embedded) {
      throw new EnvError(
        "SECRETS_ENCRYPTION_KEY is required when DATABASE_URL is set: 32 random bytes as base64 or hex (`openssl rand -base64 32`).",
      );
    }
    rawKey = readOrCreateSecret(dataDir, "secrets-encryption-key", () => randomBytes(32).toString("base64"));
  }
  const secretsKey = parseEncryptionKey(rawKey);
  // A scheduler's bearer secret guards the worker and reconciliation routes from the internet.
  if (e.CRON_SECRET !== undefined && e.CRON_SECRET.length < 32) {
    throw new EnvError(
      `CRON_SECRET is too short (${e.CRON_SECRET.length} characters; at least 32 are needed). Generate one with \`openssl rand -base64 32\`.`,
    );
  }
  const appUrl = (e.APP_URL ?? e.NEXTAUTH_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  cached = { ...e, embedded, dataDir, nextAuthSecret: secret, appUrl, paymentsMode, secretsKey };
  return cached;
}

/** Forget the parsed environment (tests change process.env between cases). */
export function resetEnv(): void {
  cached = undefined;
}

/** A random secret persisted in the data directory, so embedded restarts keep sessions valid. */
export function readOrCreateSecret(
  dataDir: string,
  name: string,
  generate: () => string = () => randomBytes(32).toString("base64url"),
): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = generate();
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return readFileSync(file, "utf8").trim();
    throw err;
  }
}

/**
 * Sandbox or Stripe, never by accident: an embedded install defaults to the sandbox; a
 * Postgres install must say PAYMENTS_MODE=sandbox or give STRIPE_SECRET_KEY, so a forgotten key
 * can't turn a real deployment into one where every "payment" succeeds.
 */
function resolvePaymentsMode(e: z.infer<typeof envSchema>, embedded: boolean): "stripe" | "sandbox" {
  if (e.PAYMENTS_MODE === "stripe") {
    if (!e.STRIPE_SECRET_KEY) {
      throw new EnvError("PAYMENTS_MODE=stripe needs STRIPE_SECRET_KEY (your Stripe secret key, sk_live_… or sk_test_…).");
    }
    return "stripe";
  }
  if (e.PAYMENTS_MODE === "sandbox") return "sandbox";
  if (e.STRIPE_SECRET_KEY) return "stripe";
  if (embedded) return "sandbox";
  throw new EnvError(
    "Payments mode is not set: with DATABASE_URL, set STRIPE_SECRET_KEY to take real payments, or PAYMENTS_MODE=sandbox to run without moving money (no real charges; every page says Test mode).",
  );
}

/** An IP address with an optional port, as node:dns `setServers` takes it: `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53`. */
function isResolverAddress(entry: string): boolean {
  const port = (p: string | undefined) => p === undefined || (/^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535);
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]) === 6 && port(bracketed[2]);
  if (isIP(entry) !== 0) return true;
  const v4 = /^([\d.]+):(\d+)$/.exec(entry);
  return !!v4 && isIP(v4[1]) === 4 && port(v4[2]);
}

/** 32 bytes written as base64 (44 characters) or hex (64 characters); anything else refuses to start. */
export function parseEncryptionKey(raw: string): Buffer {
  const t = raw.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(t)) key = Buffer.from(t, "hex");
  else if (/^[A-Za-z0-9+/]{43}=$/.test(t)) key = Buffer.from(t, "base64");
  if (!key || key.length !== 32) {
    throw new EnvError(
      "SECRETS_ENCRYPTION_KEY must be 32 random bytes written as base64 (44 characters) or hex (64 characters): `openssl rand -base64 32`.",
    );
  }
  return key;
}
