// Refuses a bad configuration before anything is built or served: the app's own checks
// (lib/env.ts) run on the same environment Next.js will see (.env files included), so `npm start`
// and the server exit at once with a message naming the variable instead of building for
// minutes or answering requests with a broken setup.
import { createRequire } from "node:module";
import { getEnv, resetEnv, type Env } from "@/lib/env";

/** The exit code of a refused configuration (sysexits' EX_CONFIG): the cluster primary does not retry it. */
export const CONFIG_ERROR_EXIT = 78;

/** True for the app's EnvError, also when Next.js wrapped it while running the instrumentation hook. */
export function isConfigError(err: unknown): boolean {
  const e = err as { name?: string; cause?: { name?: string } } | null;
  return e?.name === "EnvError" || e?.cause?.name === "EnvError";
}

/** Prints the refusal on stderr and exits with CONFIG_ERROR_EXIT. */
export function refuseToStart(err: unknown): never {
  const e = err as { message?: string; cause?: { name?: string; message?: string } };
  const message = String(e?.cause?.name === "EnvError" ? e.cause.message : (e?.message ?? err)).replace(
    /^An error occurred while loading instrumentation hook: /,
    "",
  );
  console.error(`Goodfund cannot start: ${message}`);
  process.exit(CONFIG_ERROR_EXIT);
}

/** Loads .env files as Next.js does, then validates process.env; exits on a refused configuration. */
export function checkEnvOrExit({ dev }: { dev: boolean }): Env {
  // @next/env is Next.js's own loader; resolve it through next so a non-hoisted install works too.
  const nextRequire = createRequire(createRequire(__filename).resolve("next/package.json"));
  const { loadEnvConfig } = nextRequire("@next/env") as typeof import("@next/env");
  loadEnvConfig(process.cwd(), dev, { info: () => {}, error: (...args: unknown[]) => console.error(...args) });
  resetEnv();
  try {
    return getEnv();
  } catch (err) {
    if (isConfigError(err)) refuseToStart(err);
    throw err;
  }
}
