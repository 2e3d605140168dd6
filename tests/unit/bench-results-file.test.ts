import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeApiPart, writePagesPart } from "../../bench/lib/results-file";

// bench/RESULTS.md is written by two benches: each rewrites its own part and keeps the other's.

describe("bench/RESULTS.md's two parts", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "goodfund-results-"));
    return path.join(dir, "RESULTS.md");
  };

  it("the API bench rewrites the head and keeps the pages bench's section", () => {
    const f = file();
    writeFileSync(f, "# Bench results\n\nold API table\n");
    writePagesPart(f, "## Pages (Lighthouse)\n\nfirst");
    writeApiPart(f, "# Bench results\n\nnew API table\n");
    const text = readFileSync(f, "utf8");
    expect(text).toContain("new API table");
    expect(text).not.toContain("old API table");
    expect(text).toContain("## Pages (Lighthouse)\n\nfirst");
    expect(text.indexOf("new API table")).toBeLessThan(text.indexOf("## Pages"));
  });

  it("the pages bench replaces its own section and keeps the API bench's part", () => {
    const f = file();
    writeApiPart(f, "# Bench results\n\nAPI table <!-- bench-runs [] -->\n");
    writePagesPart(f, "## Pages (Lighthouse)\n\nfirst");
    writePagesPart(f, "## Pages (Lighthouse)\n\nsecond");
    const text = readFileSync(f, "utf8");
    expect(text).toContain("API table <!-- bench-runs [] -->");
    expect(text).toContain("second");
    expect(text).not.toContain("first");
    expect(text.match(/bench-pages:start/g)).toHaveLength(1);
  });

  it("starts the file when there is none", () => {
    const f = file();
    writePagesPart(f, "## Pages (Lighthouse)\n\nonly");
    expect(readFileSync(f, "utf8")).toContain("only");
  });
});
