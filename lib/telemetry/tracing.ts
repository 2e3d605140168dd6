// Spans of our own code (the fast path's requests, database statements, outbox jobs) through the
// public OpenTelemetry API: no-ops unless the app registered a tracer provider at start-up
// (./start-tracing.ts, with OTEL_EXPORTER_OTLP_ENDPOINT set).
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

const tracer = () => trace.getTracer("goodfund");

/** Runs `fn` in a span named `name` (the active one meanwhile), recording a thrown error. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * A database statement as the driver sends it (the `postgres` driver's `debug` hook): a client
 * span in the active trace, carrying the statement's text (never its parameters). The driver
 * reports when a statement is sent, not when its answer arrives, so the span marks the moment.
 */
export function recordStatement(statement: string): void {
  const active = trace.getActiveSpan();
  if (!active) return;
  tracer()
    .startSpan(statement.trimStart().split(/\s/, 1)[0]?.toUpperCase() || "SQL", {
      kind: SpanKind.CLIENT,
      attributes: { "db.system": "postgresql", "db.statement": statement.length > 2000 ? `${statement.slice(0, 2000)}…` : statement },
    })
    .end();
}

/** The active trace's ID and span ID, for log lines; nothing outside a trace. */
export function traceFields(): { traceId?: string; spanId?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return {};
  return { traceId: context.traceId, spanId: context.spanId };
}

/**
 * Sends the spans still buffered (the server calls it before it exits on SIGTERM), within
 * `timeoutMs`. The registered provider sits behind the API's proxy provider; without one (tracing
 * off) there is nothing to send.
 */
export async function flushTraces(timeoutMs = 2_000): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const delegate = (provider.getDelegate?.() ?? provider) as { forceFlush?: () => Promise<void> };
  if (typeof delegate.forceFlush !== "function") return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    delegate.forceFlush().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]).finally(() => clearTimeout(timer));
}
