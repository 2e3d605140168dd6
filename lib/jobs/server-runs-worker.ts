/**
 * Set to "1" by our own server (server/main.ts) before Next.js loads: it starts the worker itself
 * once the app is prepared, and stops it (giving back its outbox leases) on SIGTERM. Under
 * `next start` or a platform running Next.js, the app's start-up (./startup.ts) starts it.
 */
export const SERVER_RUNS_WORKER_ENV = "GOODFUND_SERVER_RUNS_WORKER";
