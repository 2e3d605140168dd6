// Refuses a bad configuration before anything is built or served: the same checks as the app's own
// (lib/env.ts, loaded through tsx), run on the same environment Next.js will see (.env files
// included), so `npm start` and `node scripts/server.mjs` exit at once with a message naming the
// variable instead of building for minutes or answering requests with a broken setup.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

/** The exit code of a refused configuration (sysexits' EX_CONFIG): the cluster primary does not retry it. */
export const CONFIG_ERROR_EXIT = 78;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** True for the app's EnvError, also when Next.js wrapped it while running the instrumentation hook. */
export function isConfigError(err) {
  return err?.name === "EnvError" || err?.cause?.name === "EnvError";
}

/** Prints the refusal on stderr and exits with CONFIG_ERROR_EXIT. */
export function refuseToStart(err) {
  const message = String(err?.cause?.name === "EnvError" ? err.cause.message : (err?.message ?? err)).replace(
    /^An error occurred while loading instrumentation hook: /,
    "",
  );
  console.error(`Goodfund cannot start: ${message}`);
  process.exit(CONFIG_ERROR_EXIT);
}

/** Loads .env files as Next.js does, then validates process.env; exits on a refused configuration. */
export async function checkEnvOrExit({ dev = process.env.NODE_ENV === "development" } = {}) {
  // @next/env is Next.js's own loader; resolve it through next so a non-hoisted install works too.
  const { loadEnvConfig } = createRequire(createRequire(import.meta.url).resolve("next/package.json"))("@next/env");
  loadEnvConfig(process.cwd(), dev, { info: () => {}, error: (...args) => console.error(...args) });
  // A scoped TypeScript loader, removed again before Next.js loads.
  const tsx = register({ namespace: randomUUID() });
  const { getEnv } = await tsx.import(pathToFileURL(path.join(root, "lib", "env.ts")).href, import.meta.url);
  await tsx.unregister();
  try {
    getEnv();
  } catch (err) {
    if (isConfigError(err)) refuseToStart(err);
    throw err;
  }
}
