import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, startServer, type RunningServer } from "../helpers/server";

// A first run (embedded database, demo seeded): the production server serves the demo's covers
// from public/, and the donate page shows them and shares them as absolute Open Graph images.
const root = path.resolve(__dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-covers-"));
const embedded = {
  GOODFUND_DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  PGLITE_DIR: undefined,
  TEST_DATABASE_URL: undefined,
  NEXTAUTH_SECRET: undefined,
  REDIS_URL: undefined,
};
let server: RunningServer;

beforeAll(async () => {
  await ensureBuild();
  server = await startServer(embedded);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the demo's cover images (npm start, embedded)", () => {
  it("GET /covers/winter-meals.svg serves the file from public/ as an SVG image", async () => {
    const res = await fetch(`${server.url}/covers/winter-meals.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toBe(readFileSync(path.join(root, "public/covers/winter-meals.svg"), "utf8"));
  });

  it("GET /o/demo/donate/winter-meals shows the cover, the logo and the story, and shares an absolute og:image", async () => {
    const res = await fetch(`${server.url}/o/demo/donate/winter-meals`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toMatch(/img-src 'self'/);
    const html = await res.text();
    expect(html).toContain('src="/covers/winter-meals.svg"');
    expect(html).toContain('src="/covers/riverside-logo.svg"');
    expect(html).toContain("Every $25 puts a week of hot meals on a neighbour&#x27;s table this winter.");
    const appUrl = (process.env.APP_URL ?? "").replace(/\/+$/, "");
    expect(html).toContain(`<meta property="og:image" content="${appUrl}/covers/winter-meals.svg"/>`);
    expect(html).toContain(`<meta name="twitter:image" content="${appUrl}/covers/winter-meals.svg"/>`);
  });
});
