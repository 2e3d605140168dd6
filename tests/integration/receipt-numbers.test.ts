import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "@/db";
import { findOrganization } from "@/db/queries/organizations";
import * as schema from "@/db/schema";
import { recordOfflineGift } from "@/lib/services/gifts/record-offline-gift";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeOrgAndCampaign, randomEmail } from "../helpers/records";

/**
 * Two app instances are two database clients with pools of their own (on PGlite, one process by
 * construction, both are the same database): gifts recorded on both at once must still take
 * consecutive receipt numbers, with no gap and no number given twice.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const second = onPostgres ? postgres(process.env.TEST_DATABASE_URL!, { max: 10, onnotice: () => {} }) : null;
afterAll(async () => {
  await second?.end({ timeout: 5 });
});

const audit = { actor: { type: "user", id: "usr_receipts", label: null }, requestId: "req-receipts", clientIp: "127.0.0.1" } as const;

describe("receipt numbers", () => {
  it(`50 gifts recorded at once across two app instances get 50 consecutive receipt numbers`, async () => {
    const first = await testDb();
    const other = second ? (drizzle(second, { schema, casing: "snake_case" }) as unknown as Db) : first;
    const { org, campaign } = await activeOrgAndCampaign();
    const row = (await findOrganization(first, org.id))!;
    const year = new Date().getUTCFullYear() - 1;
    const gifts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        recordOfflineGift(
          i % 2 === 0 ? first : other,
          row,
          {
            campaignId: campaign.id,
            amount: 1000 + i,
            receivedAt: new Date(Date.UTC(year, 5, 1, 12, 0, i)),
            method: "CASH",
            reference: null,
            note: null,
            // A few donors shared, so gifts also queue on donor rows.
            donor: {
              email: i % 5 === 0 ? "shared@example.org" : randomEmail(),
              firstName: "Ada",
              lastName: `Donor ${i}`,
              address: null,
              phone: null,
            },
          },
          audit as never,
        ),
      ),
    );
    const numbers = gifts.map((g) => g.receiptNumber!).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `${year}-${String(i + 1).padStart(6, "0")}`));
    expect(await findViolations(first, [org.id])).toEqual([]);
  }, 120_000);
});
