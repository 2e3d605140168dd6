// OpenTelemetry tracing, started by instrumentation.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set:
// the official SDK's Node tracer provider, exporting over OTLP/HTTP (the exporter reads the
// standard OTEL_EXPORTER_OTLP_* variables itself: `<endpoint>/v1/traces`). Next.js's own request
// spans, and ours (./tracing.ts), go through it.
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

export function startTracing(): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": process.env.OTEL_SERVICE_NAME || "goodfund" }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global provider, context manager (AsyncLocalStorage) and W3C trace-context propagation.
  provider.register();
  return provider;
}
