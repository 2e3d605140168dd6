// `npm start`: build the app when there is no up-to-date build, then serve it. Migrations, the
// demo seed and the background worker start inside the server (instrumentation.ts).
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfNeeded } from "./build-if-needed.mjs";
import { checkEnvOrExit } from "./check-env.mjs";

// A configuration the server would refuse stops here, before a build that could take minutes.
await checkEnvOrExit({ dev: false });

try {
  buildIfNeeded({ force: process.env.GOODFUND_REBUILD === "1" });
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const child = spawn(process.execPath, [path.join(process.cwd(), "scripts", "server.mjs")], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
