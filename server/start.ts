// `npm start`: build the app when there is no up-to-date build, then serve it (./main.ts).
// Migrations, the demo seed and the background worker start inside the server
// (instrumentation.ts).
import { spawn } from "node:child_process";
import path from "node:path";
// @ts-expect-error a plain ES module without type declarations (a build tool, shared with the tests)
import { buildIfNeeded } from "../scripts/build-if-needed.mjs";
import { checkEnvOrExit } from "./check-env";

// A configuration the server would refuse stops here, before a build that could take minutes.
checkEnvOrExit({ dev: false });

try {
  buildIfNeeded({ force: process.env.GOODFUND_REBUILD === "1" });
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

/**
 * V8's young generation, per semi-space, in MiB (Node's documented `--max-semi-space-size`; V8's
 * default is 16 on 64-bit machines). A request's garbage dies young: with room for a few hundred
 * requests' worth of it between scavenges, little survives long enough to be promoted, so the old
 * generation grows slowly and its full collections, the pauses that set the API's p99, are rare
 * (bench/README.md, "Allocation per donation"). Cluster workers inherit it.
 */
export const SEMI_SPACE_MB = 32;

const child = spawn(process.execPath, [`--max-semi-space-size=${SEMI_SPACE_MB}`, "--import", "tsx", path.join(__dirname, "main.ts")], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
