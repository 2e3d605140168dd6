import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startEmbeddedServerForFile } from "../helpers/embedded-server";

// A first run (embedded database, demo seeded): the production server serves the demo's covers
// from public/, and the donate page shows them and shares them as absolute Open Graph images.
const root = path.resolve(__dirname, "../..");
const APP_URL = "http://goodfund.test";
const app = startEmbeddedServerForFile("goodfund-covers-", { APP_URL });

describe("the demo's cover images (npm start, embedded)", () => {
  it("GET /covers/winter-meals.svg serves the file from public/ as an SVG image", async () => {
    const res = await fetch(`${app.server.url}/covers/winter-meals.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toBe(readFileSync(path.join(root, "public/covers/winter-meals.svg"), "utf8"));
  });

  it("GET /o/demo/donate/winter-meals shows the cover, the logo and the story, and shares an absolute og:image", async () => {
    const res = await fetch(`${app.server.url}/o/demo/donate/winter-meals`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toMatch(/img-src 'self'/);
    const html = await res.text();
    expect(html).toContain('src="/covers/winter-meals.svg"');
    expect(html).toContain('src="/covers/riverside-logo.svg"');
    expect(html).toContain("Every $25 puts a week of hot meals on a neighbour&#x27;s table this winter.");
    expect(html).toContain(`<meta property="og:image" content="${APP_URL}/covers/winter-meals.svg"`);
    expect(html).toContain(`<meta name="twitter:image" content="${APP_URL}/covers/winter-meals.svg"`);
  });
});
