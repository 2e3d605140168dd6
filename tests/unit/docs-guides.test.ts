import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { GUIDES } from "@/app/docs/guides/guides";
import { guideHref, headingId } from "@/app/docs/markdown";

// The guides in docs/ that /docs/guides/<slug> serves: all listed, self-contained, their links resolvable.

const root = path.resolve(__dirname, "../..");
const guideFiles = readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md"));
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The Markdown outside fenced code blocks. */
const prose = (md: string) => md.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
const headings = (md: string) => [...prose(md).matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => ({ level: m[1].length, text: m[2] }));
const links = (md: string) => [...prose(md).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);

/** Every file under app/docs, for the self-containment check. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

describe("docs guides", () => {
  test("every Markdown file in docs/ is a listed guide, and every listed guide has its file", () => {
    expect(guideFiles.map((f) => f.replace(/\.md$/, "")).sort()).toEqual(GUIDES.map((g) => g.slug).sort());
  });

  test.each(GUIDES.map((g) => [g.slug]))("docs/%s.md has one h1 and no table (rendered without GFM)", (slug) => {
    const md = read(`docs/${slug}.md`);
    expect(md.startsWith("# ")).toBe(true);
    expect(headings(md).filter((h) => h.level === 1)).toHaveLength(1);
    expect(prose(md)).not.toMatch(/^\s*\|.*\|\s*$/m);
  });

  test.each(GUIDES.map((g) => [g.slug]))("docs/%s.md links only to guides, the reference, or the web", (slug) => {
    for (const link of links(read(`docs/${slug}.md`))) {
      const href = guideHref(link);
      if (/^https:\/\//.test(href)) continue;
      const [pathname, anchor] = href.split("#");
      if (pathname === "/docs" || pathname === "") continue;
      const target = /^\/docs\/guides\/([a-z0-9-]+)$/.exec(pathname)?.[1];
      expect(target && GUIDES.some((g) => g.slug === target), `${slug}: ${link}`).toBe(true);
      if (anchor) {
        const ids = headings(read(`docs/${target}.md`)).map((h) => headingId(h.text));
        expect(ids, `${slug}: ${link}`).toContain(anchor);
      }
    }
  });

  test("the README, the guides and the reference's pages refer to nothing outside the repository", () => {
    const files = ["README.md", ...guideFiles.map((f) => `docs/${f}`), ...filesUnder("app/docs")];
    for (const file of files) {
      const text = read(file);
      expect(text, file).not.toMatch(/\.\.\/shared|\bcontract\b|\bthe spec\b|\bsection \d/i);
    }
  });
});
