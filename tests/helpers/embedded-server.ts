import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { ensureBuild, startServer, type RunningServer } from "./server";

type Env = Record<string, string | undefined>;

/**
 * One embedded-mode production server for a test file (`npm start` on a fresh data directory,
 * demo seeded): started before the file's tests, stopped and its directory removed after.
 * `app.server` may be replaced by a test that restarts with other settings (`app.env` spread).
 */
export function startEmbeddedServerForFile(prefix: string, extra: Env = {}): { env: Env; dataDir: string; server: RunningServer } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const env: Env = {
    GOODFUND_DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    PGLITE_DIR: undefined,
    TEST_DATABASE_URL: undefined,
    NEXTAUTH_SECRET: undefined,
    NEXTAUTH_URL: undefined,
    APP_URL: undefined,
    REDIS_URL: undefined,
    TRUST_PROXY: undefined,
    // The demo's history plays before the server answers: a sliver of it keeps the start short.
    DEMO_HISTORY_SCALE: "0.02",
    ...extra,
  };
  const app = { env, dataDir, server: undefined as unknown as RunningServer };
  beforeAll(async () => {
    await ensureBuild();
    app.server = await startServer(env);
  }, 900_000);
  afterAll(async () => {
    await app.server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return app;
}
