import { getEnv } from "@/lib/env";
import { traceFields } from "@/lib/telemetry/tracing";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

// Keys whose values must never reach a log line, whatever a caller passes.
const SECRET_KEY = /secret|token|password|authorization|cookie|signature|api[_-]?key/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? "[redacted]" : v;
  return out;
}

/** Structured JSON log lines on stdout/stderr; one object a line, never request bodies or headers. */
// The threshold of the parsed environment it was read from (tests reset the environment).
let thresholdOf: { env: object | null; value: number } = { env: null, value: LEVELS.info };

function threshold(): number {
  try {
    const env = getEnv();
    if (thresholdOf.env !== env) thresholdOf = { env, value: LEVELS[env.LOG_LEVEL] };
    return thresholdOf.value;
  } catch {
    return LEVELS.info;
  }
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (LEVELS[level] < threshold()) return;
  // Inside a trace (OTEL_EXPORTER_OTLP_ENDPOINT set), the line names it: `traceId`, `spanId`.
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...traceFields(), ...redact(fields) });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};

export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const cause =
      err.cause instanceof Error
        ? { cause: `${(err.cause as Error & { code?: string }).code ?? err.cause.name}: ${err.cause.message}` }
        : {};
    return { err: err.name, errMessage: err.message, ...cause, stack: err.stack };
  }
  return { err: String(err) };
}
