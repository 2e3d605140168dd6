// Runs after `npm ci`/`npm install` (package.json "postinstall"). Fixes a bug of the `postgres`
// driver 3.4.9, the newest release: when a connection's socket closes while a small write waits for
// its setImmediate flush, terminate()/closed() cancel the immediate but leave `nextWriteTimer` set
// and the stale `chunk` buffered. write() only schedules a flush while `nextWriteTimer` is null, so
// that connection never sends its next StartupMessage: after a database outage some reconnects hang
// until connect_timeout and fail the queries queued on them (tests/reliability/postgres-outage.spec.ts
// saw 503s seconds after the database was back; write CONNECT_TIMEOUT). The same diagnosis:
// LanternOps/breeze issue #3225. Idempotent; a newer driver without the pattern is left alone.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.join(process.cwd(), "node_modules", "postgres");
// The teardown lines: `clearImmediate(nextWriteTimer)` alone on its line, not yet followed by the reset.
const broken = /^([ \t]*)clearImmediate\(nextWriteTimer\)\n(?![ \t]*chunk = nextWriteTimer = null)/gm;
let patched = 0;
for (const dir of ["src", "cjs/src", "cf/src"]) {
  const file = path.join(root, dir, "connection.js");
  if (!existsSync(file)) continue;
  const source = readFileSync(file, "utf8");
  const fixed = source.replace(broken, "$1clearImmediate(nextWriteTimer)\n$1chunk = nextWriteTimer = null\n");
  if (fixed !== source) {
    writeFileSync(file, fixed);
    patched++;
  }
}
if (patched > 0) console.log(`patch-postgres: reset the write timer on teardown in ${patched} copies of postgres/connection.js`);
