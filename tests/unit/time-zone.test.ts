import { describe, expect, it } from "vitest";
import { instantOfWall, isoToWallInput, isTimeZone, midnightOf, offsetAt, timeZoneNames, wallInputToIso, wallOf } from "@/lib/time-zone";

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe("time zones", () => {
  it("knows IANA names and UTC, and refuses anything else", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Europe/Paris")).toBe(true);
    for (const bad of ["", "Mars/Olympus", "America/New York", "<script>", "x".repeat(65), "../etc"]) expect(isTimeZone(bad)).toBe(false);
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(names).toContain("America/New_York");
    expect(new Set(names).size).toBe(names.length);
  });

  it("offsets follow daylight saving", () => {
    expect(offsetAt("America/New_York", at("2026-01-15T12:00:00Z"))).toBe(-5 * H);
    expect(offsetAt("America/New_York", at("2026-07-15T12:00:00Z"))).toBe(-4 * H);
    expect(offsetAt("Asia/Kolkata", at("2026-07-15T12:00:00Z"))).toBe(5.5 * H);
    expect(offsetAt("UTC", at("2026-07-15T12:00:00Z"))).toBe(0);
    // Milliseconds do not disturb it.
    expect(offsetAt("Europe/Paris", at("2026-07-15T12:00:00.999Z"))).toBe(2 * H);
  });

  it("wall times and instants convert both ways, around both daylight-saving changes", () => {
    for (const iso of [
      "2026-03-08T06:59:59Z",
      "2026-03-08T07:00:00Z",
      "2026-11-01T05:30:00Z",
      "2026-11-01T06:30:00Z",
      "2026-12-31T23:59:00Z",
    ]) {
      const ms = at(iso);
      const wall = wallOf("America/New_York", ms);
      if (iso !== "2026-11-01T06:30:00Z") expect(instantOfWall("America/New_York", wall)).toBe(ms);
    }
    // 01:30 happens twice on 1 November 2026 in New York: the first is answered.
    expect(new Date(instantOfWall("America/New_York", at("2026-11-01T01:30:00Z"))).toISOString()).toBe("2026-11-01T05:30:00.000Z");
    // 02:30 never happens on 8 March 2026: read with the offset before the jump.
    expect(new Date(instantOfWall("America/New_York", at("2026-03-08T02:30:00Z"))).toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });

  it("midnights and datetime-local values are local", () => {
    expect(new Date(midnightOf("America/New_York", "2026-12-05")).toISOString()).toBe("2026-12-05T05:00:00.000Z");
    expect(new Date(midnightOf("Asia/Tokyo", "2026-12-05")).toISOString()).toBe("2026-12-04T15:00:00.000Z");
    expect(wallInputToIso("America/New_York", "2026-12-05T19:30")).toBe("2026-12-06T00:30:00.000Z");
    expect(isoToWallInput("America/New_York", "2026-12-06T00:30:00.000Z")).toBe("2026-12-05T19:30");
    expect(wallInputToIso("UTC", "not a date")).toBeNull();
  });
});
