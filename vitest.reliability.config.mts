import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:reliability`: fault and redelivery runs against the production build (real
// servers, a fresh Postgres database per file). Files run one after another: each starts its own
// app instances and loads the machine. Counts are turned down for CI with RELIABILITY_* variables
// (see tests/reliability/README.md).
export default defineConfig({
  resolve: { alias: { "@": path.dirname(fileURLToPath(import.meta.url)) } },
  test: {
    include: ["tests/reliability/**/*.spec.ts"],
    testTimeout: 900_000,
    hookTimeout: 600_000,
    pool: "forks",
    fileParallelism: false,
    maxWorkers: 1,
    env: {
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "reliability-secret-for-goodfund-0123456789",
      PROCESSOR_WEBHOOK_SECRET: process.env.PROCESSOR_WEBHOOK_SECRET ?? "whsec_reliability_0123456789",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
    },
  },
});
