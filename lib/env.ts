import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
  TRUST_PROXY: flag,
  RATE_LIMIT_PUBLIC_PER_MINUTE: positiveInt(100),
  RATE_LIMIT_AUTHENTICATED_PER_MINUTE: positiveInt(600),
  RATE_LIMIT_BACKEND: z.enum(["upstash", "redis", "memory"]).optional(),
  REDIS_URL: optionalString,
  UPSTASH_REDIS_REST_URL: optionalString,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_API_HOST: optionalString,
  PROCESSOR_WEBHOOK_SECRET: optionalString,
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  RESEND_API_KEY: optionalString,
  RESEND_BASE_URL: optionalString,
  EMAIL_FROM: z.string().default("Goodfund <no-reply@goodfund.local>"),
  CRON_SECRET: optionalString,
  WORKER_DISABLED: flag,
  SEED_DEMO: z.enum(["1", "0", "true", "false", ""]).optional(),
  ALLOW_PRIVATE_WEBHOOK_URLS: flag,
});

export type Env = z.infer<typeof envSchema> & {
  /** True when no DATABASE_URL is set: PGlite under the data directory, generated secrets. */
  embedded: boolean;
  dataDir: string;
  nextAuthSecret: string;
  appUrl: string;
};

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
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const embedded = !e.DATABASE_URL;
  const dataDir = path.resolve(/*turbopackIgnore: true*/ e.GOODFUND_DATA_DIR ?? ".data");
  let secret = e.NEXTAUTH_SECRET;
  if (!secret) {
    if (!embedded) {
      throw new Error(
        "NEXTAUTH_SECRET is required when DATABASE_URL is set (generate one with `openssl rand -base64 32`).",
      );
    }
    secret = readOrCreateSecret(dataDir, "nextauth-secret");
  }
  const appUrl = (e.APP_URL ?? e.NEXTAUTH_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  cached = { ...e, embedded, dataDir, nextAuthSecret: secret, appUrl };
  return cached;
}

/** Forget the parsed environment (tests change process.env between cases). */
export function resetEnv(): void {
  cached = undefined;
}

/** A random secret persisted in the data directory, so embedded restarts keep sessions valid. */
export function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return readFileSync(file, "utf8").trim();
    throw err;
  }
}
