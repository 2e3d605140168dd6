/**
 * The Node.js versions Goodfund supports install without engine warnings: every package that
 * `npm ci` puts in node_modules (package-lock.json) accepts the oldest release of each supported
 * line, and package.json's own `engines` says the same lines. A dependency upgrade that needs a
 * newer Node (zod-openapi 6 needs 22.14) fails here before `npm ci` warns EBADENGINE on a
 * supported version. `.ci/run` also refuses an `npm ci` that printed the warning.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

/** The oldest release of each supported Node.js line (README: Requirements). */
const SUPPORTED_MINIMUMS = ["20.19.0", "22.13.0", "24.0.0"];

type LockEntry = { version?: string; engines?: { node?: string } | string[]; os?: string[]; cpu?: string[] };
const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};

/** npm's os/cpu rule: listed, or only negations (`!win32`) none of which names it. */
function allows(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  return list.includes(value) || list.every((v) => v.startsWith("!"));
}

/** The packages npm installs on this platform with their Node range (optional builds for other platforms are skipped, as npm does). */
function installedWithEngines(): Array<{ name: string; version: string; range: string }> {
  const found = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === "") continue;
    const engines = entry.engines;
    const range = engines && !Array.isArray(engines) ? engines.node : undefined;
    if (!range) continue;
    if (!allows(entry.os, process.platform) || !allows(entry.cpu, process.arch)) continue;
    found.push({ name: key.replace(/^.*node_modules\//, ""), version: entry.version ?? "?", range });
  }
  return found;
}

describe("supported Node.js versions", () => {
  it("package.json's engines accepts each supported line from its oldest release, and nothing older", () => {
    for (const version of SUPPORTED_MINIMUMS) expect(semver.satisfies(version, pkg.engines.node), version).toBe(true);
    expect(semver.minVersion(pkg.engines.node)?.version).toBe(SUPPORTED_MINIMUMS[0]);
    expect(semver.satisfies("20.18.0", pkg.engines.node)).toBe(false);
  });

  it("every installed package accepts the oldest release of each supported line and the running Node", () => {
    const packages = installedWithEngines();
    expect(packages.length).toBeGreaterThan(0);
    const refusing = [];
    for (const { name, version, range } of packages) {
      for (const node of [...SUPPORTED_MINIMUMS, process.versions.node]) {
        if (!semver.satisfies(node, range)) refusing.push(`${name}@${version} needs node ${range}, not ${node}`);
      }
    }
    expect(refusing).toEqual([]);
  });
});
