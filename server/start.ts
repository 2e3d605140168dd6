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

const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "main.ts")], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
