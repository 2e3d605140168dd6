import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoCampaigns } from "@/lib/demo/seed";

// The demo's campaigns show covers shipped in public/covers/ (served from /covers/ by the app).
const root = path.resolve(__dirname, "../..");
const campaigns = demoCampaigns("org_test", Date.UTC(2025, 0, 15));
const license = readFileSync(path.join(root, "public/covers/LICENSE.md"), "utf8");

/** The file under public/ a root-relative URL is served from. */
function publicFile(url: string): string {
  expect(url).toMatch(/^\/covers\/[a-z0-9-]+\.svg$/);
  return path.join(root, "public", url);
}

/** Checks an image is a self-contained SVG: no text, fonts, scripts or references to other files. */
function expectSelfContainedSvg(svg: string) {
  expect(svg.trimStart().startsWith("<svg")).toBe(true);
  expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  expect(svg).not.toMatch(/<(text|script|image|foreignObject|style|font)\b/i);
  expect(svg).not.toMatch(/(?:xlink:)?href\s*=/i);
  expect(svg).not.toMatch(/url\(\s*['"]?(?!#)/i);
  expect(svg).not.toMatch(/@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
}

describe("the demo seed's covers", () => {
  it("give every demo campaign a cover under /covers/", () => {
    expect(campaigns.map((c) => c.slug)).toEqual([
      "winter-meals",
      "run-for-riverside",
      "maya-runs",
      "harvest-gala",
      "friends",
      "spring-garden",
    ]);
    for (const c of campaigns) expect(c.coverImageUrl, c.slug).toBe(`/covers/${c.slug}.svg`);
  });

  it.each(campaigns.map((c) => [c.slug, c.coverImageUrl!] as const))(
    "%s: a 1200×675 SVG under 20 KB, listed in the licence",
    (_slug, url) => {
      const file = publicFile(url);
      expect(statSync(file).size).toBeLessThan(20_000);
      const svg = readFileSync(file, "utf8");
      expectSelfContainedSvg(svg);
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 1200 675"/);
      expect(license).toContain(`\`${path.basename(file)}\``);
    },
  );

  it("the organization's logo is a square SVG, listed in the licence", () => {
    const svg = readFileSync(publicFile("/covers/riverside-logo.svg"), "utf8");
    expectSelfContainedSvg(svg);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 (\d+) \1"/);
    expect(license).toContain("`riverside-logo.svg`");
  });

  it("the licence dedicates the images to the public domain under CC0 1.0", () => {
    expect(license).toContain("CC0 1.0");
    expect(license).toContain("https://creativecommons.org/publicdomain/zero/1.0/");
  });

  it("every campaign tells a short story; Winter Meals keeps its opening line and Spring Garden stays a draft", () => {
    for (const c of campaigns) {
      const sentences = c.description!.split(/(?<=[.!?])\s+/).length;
      expect(sentences, c.slug).toBeGreaterThanOrEqual(2);
      expect(sentences, c.slug).toBeLessThanOrEqual(5);
    }
    expect(campaigns[0].description).toMatch(/^Every \$25 puts a week of hot meals on a neighbour's table this winter\. /);
    const garden = campaigns.find((c) => c.slug === "spring-garden")!;
    expect(garden.status).toBe("DRAFT");
    expect(garden.description).toContain("draft");
    expect(campaigns.filter((c) => c.slug !== "spring-garden").every((c) => c.status === "ACTIVE")).toBe(true);
  });
});
