// Runs once when a server process starts (Next.js instrumentation), before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startServerProcess } = await import("./lib/jobs/startup");
  await startServerProcess();
}
