// Runs once when a server process starts (Next.js instrumentation), before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // OpenTelemetry tracing, first, so the start-up's own work is traced too.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { startTracing } = await import("./lib/telemetry/start-tracing");
    startTracing();
  }
  const { startServerProcess } = await import("./lib/jobs/startup");
  try {
    await startServerProcess();
  } catch (err) {
    // A refused configuration stops the process, however it was started: Next.js would log the
    // failed hook and serve on (`next start`, a platform running Next.js itself).
    if ((err as Error | null)?.name === "EnvError") {
      console.error(`Goodfund cannot start: ${(err as Error).message}`);
      process.exit(78);
    }
    throw err;
  }
}
