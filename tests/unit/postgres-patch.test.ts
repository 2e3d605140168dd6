import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// patches/postgres+3.4.9.patch (applied by patch-package after npm ci) resets the write timer when a
// connection is torn down; without it reconnects after a database outage can hang.
const require = createRequire(import.meta.url);
// The copy the app loads (its package.json is not exported, so walk up from the entry point).
const entry = require.resolve("postgres");
const driverDir = entry.slice(0, entry.lastIndexOf(`${path.sep}postgres${path.sep}`) + `${path.sep}postgres`.length);

describe("the postgres driver patch", () => {
  it("is installed against the exact driver version it was written for", () => {
    const pkg = JSON.parse(readFileSync(path.join(driverDir, "package.json"), "utf8")) as { version: string };
    const ours = JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(ours.dependencies.postgres).toBe("3.4.9");
    expect(pkg.version).toBe("3.4.9");
  });

  for (const copy of ["src", "cjs/src", "cf/src"]) {
    it(`resets nextWriteTimer after every clearImmediate in ${copy}/connection.js`, () => {
      const source = readFileSync(path.join(driverDir, copy, "connection.js"), "utf8");
      const teardowns = source.match(/^[ \t]*clearImmediate\(nextWriteTimer\)\n.*$/gm) ?? [];
      expect(teardowns).toHaveLength(2);
      for (const t of teardowns) expect(t.split("\n")[1].trim()).toBe("chunk = nextWriteTimer = null");
    });
  }
});
