/**
 * Properties of lib/money.ts: the "cover the fees" amount, the platform's cut and donation
 * matching, all in integer cents.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coverFeeCents, matchFor, platformFeeCents } from "@/lib/money";

/** What the card processor takes from a charge: 2.9 % rounded up, plus 30¢. */
const processorFee = (charge: number) => Math.ceil((charge * 290) / 10_000) + 30;
/** What the organization keeps of a charge. */
const net = (charge: number) => charge - processorFee(charge);
const covers = (gift: number, fee: number) => net(gift + fee) >= gift;

/** The smallest fee that covers the gift, by plain search. */
function bruteForceFee(gift: number): number {
  for (let fee = 0; ; fee++) if (covers(gift, fee)) return fee;
}

describe("coverFeeCents", () => {
  it("matches a brute-force search for the smallest covering fee (small gifts)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), (gift) => {
        expect(coverFeeCents(gift)).toBe(bruteForceFee(gift));
      }),
      { numRuns: 500 },
    );
  });

  it("matches the brute force exactly for every gift from 100 to 3 000 cents", () => {
    for (let gift = 100; gift <= 3_000; gift++) expect(coverFeeCents(gift), `gift ${gift}`).toBe(bruteForceFee(gift));
  });

  it("is the smallest covering fee for any gift up to what a donation may be", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (gift) => {
        const fee = coverFeeCents(gift);
        expect(Number.isSafeInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(30);
        expect(covers(gift, fee)).toBe(true);
        expect(covers(gift, fee - 1)).toBe(false);
      }),
      { numRuns: 1_000 },
    );
  });

  it("never decreases as the gift grows", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (gift, more) => {
        expect(coverFeeCents(gift + more)).toBeGreaterThanOrEqual(coverFeeCents(gift));
      }),
    );
  });

  it("known values", () => {
    // 100¢: 134 − ceil(3.886) − 30 = 100; 133 − 4 − 30 = 99.
    expect(coverFeeCents(100)).toBe(34);
    expect(coverFeeCents(2500)).toBe(bruteForceFee(2500));
    expect(coverFeeCents(0)).toBe(31);
  });
});

describe("platformFeeCents", () => {
  it("is an integer between 0 and the charge, and the charge × bps rounded down", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_147_483_647 }), fc.integer({ min: 0, max: 10_000 }), (charge, bps) => {
        const fee = platformFeeCents(charge, bps);
        expect(Number.isInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(0);
        expect(fee).toBeLessThanOrEqual(charge);
        // Rounded down: the exact share lies in [fee, fee + 1).
        expect(BigInt(fee) * 10_000n).toBeLessThanOrEqual(BigInt(charge) * BigInt(bps));
        expect((BigInt(fee) + 1n) * 10_000n).toBeGreaterThan(BigInt(charge) * BigInt(bps));
      }),
      { numRuns: 1_000 },
    );
  });

  it("is 0 without a platform fee and the whole charge at 100 %", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_147_483_647 }), (charge) => {
        expect(platformFeeCents(charge, 0)).toBe(0);
        expect(platformFeeCents(charge, 10_000)).toBe(charge);
      }),
    );
    expect(platformFeeCents(3333, 250)).toBe(83);
    expect(platformFeeCents(99, 250)).toBe(2);
  });
});

describe("matchFor", () => {
  const amount = fc.integer({ min: 0, max: 100_000_000 });
  const ratio = fc.integer({ min: 1, max: 1_000 });
  const budget = fc.integer({ min: 0, max: 1_000_000_000 });

  it("never exceeds the remaining budget, the wanted match, and is never negative", () => {
    fc.assert(
      fc.property(amount, ratio, budget, fc.integer({ min: 0, max: 1_100_000_000 }), (a, r, max, already) => {
        const m = matchFor(a, r, max, already);
        expect(Number.isInteger(m)).toBe(true);
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(Math.max(0, max - already));
        expect(m).toBeLessThanOrEqual(Math.floor((a * r) / 100));
        // It takes all it can: the wanted match, or everything that is left.
        expect(m).toBe(Math.max(0, Math.min(Math.floor((a * r) / 100), max - already)));
      }),
      { numRuns: 1_000 },
    );
  });

  it("without a cap is the ratio of the gift, rounded down", () => {
    fc.assert(
      fc.property(amount, ratio, fc.integer({ min: 0, max: 1_000_000_000 }), (a, r, already) => {
        const m = matchFor(a, r, null, already);
        expect(Number.isInteger(m)).toBe(true);
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBe(Math.floor((a * r) / 100));
      }),
    );
    expect(matchFor(2500, 100, null, 0)).toBe(2500);
    expect(matchFor(2500, 200, null, 0)).toBe(5000);
    expect(matchFor(333, 50, null, 0)).toBe(166);
  });

  it("a sequence of gifts never matches more than the budget in total", () => {
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 40 }), ratio, budget, (gifts, r, max) => {
        let matched = 0;
        for (const g of gifts) {
          const m = matchFor(g, r, max, matched);
          expect(m).toBeGreaterThanOrEqual(0);
          matched += m;
          expect(matched).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});
