/** How requests that fail for a passing reason are tried again. */
export type RetryOptions = {
  /** Attempts in all, the first included (default 3; 1 never retries). */
  maxAttempts?: number;
  /** The wait before the first retry; it doubles each time (default 500 ms). */
  baseDelayMs?: number;
  /** The longest wait between two attempts, jitter included (default 10 s). */
  maxDelayMs?: number;
  /**
   * A `Retry-After` longer than this is not waited for: the response is returned as it is
   * (default 60 s, the length of the API's rate-limit window).
   */
  maxRetryAfterMs?: number;
};

export type FetchLike = (input: Request) => Promise<Response>;

/** Statuses that mean "not now": rate-limited, a proxy's failed upstream, or the database unreachable. */
const RETRY_STATUSES = new Set([429, 502, 503]);
/** Methods that may be sent twice without doing anything twice. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * Whether `request` may be sent again after a network error or a 502, when the server may have
 * acted on it: idempotent methods, and POSTs carrying an `Idempotency-Key` (the server answers a
 * repeat with the first answer). Others (PATCH) are retried only on 429 and 503, which the
 * server answers without having changed anything.
 */
function safeToResend(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || request.headers.has("idempotency-key");
}

/** `Retry-After` in milliseconds (seconds, or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential backoff with jitter: between half and all of `base · 2^(retry-1)`, capped. */
export function backoffMs(retry: number, baseDelayMs: number, maxDelayMs: number, random = Math.random): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The API's answer to a repeat of a POST whose first run has not finished yet (its answer was lost on the way). */
const IN_PROGRESS = "A request with this idempotency key is in progress";

/** A 409 saying the same Idempotency-Key is still running: worth asking again shortly for the answer. */
async function stillInProgress(request: Request, response: Response): Promise<boolean> {
  if (response.status !== 409 || !request.headers.has("idempotency-key")) return false;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return body.error === IN_PROGRESS;
  } catch {
    return false;
  }
}

const isAbort = (err: unknown) => err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError");

/**
 * A fetch that sends each request up to `maxAttempts` times: again after a network error, a
 * 429/502/503 answer, or a 409 saying the same Idempotency-Key is still being worked on, waiting `Retry-After` when the server says how long, else an exponential
 * backoff with jitter. Every attempt sends a copy of the same request (same headers, so the same
 * `Idempotency-Key`, and same body). The last answer, or the last network error, is the result.
 */
export function retryingFetch(inner: FetchLike, options: RetryOptions = {}): FetchLike {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 3));
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;

  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      let response: Response;
      try {
        // The original is never sent, so it can be copied again for the next attempt.
        response = await inner(last ? request : request.clone());
      } catch (err) {
        if (last || isAbort(err) || request.signal?.aborted || !safeToResend(request)) throw err;
        await sleep(backoffMs(attempt, baseDelayMs, maxDelayMs), request.signal);
        continue;
      }
      if (last) return response;
      if (!RETRY_STATUSES.has(response.status) && !(await stillInProgress(request, response))) return response;
      if (response.status === 502 && !safeToResend(request)) return response;
      const told = retryAfterMs(response.headers.get("retry-after"));
      if (told !== null && told > maxRetryAfterMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(told ?? backoffMs(attempt, baseDelayMs, maxDelayMs), request.signal);
    }
  };
}
