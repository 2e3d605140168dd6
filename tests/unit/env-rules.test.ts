/**
 * Start-up rules of lib/env.ts added by the second abuse review (contract section 20): a
 * CRON_SECRET shorter than 32 characters and DNS_RESOLVERS that node:dns can't use refuse the
 * configuration (an EnvError naming the variable, which the server turns into a refusal to start).
 */
import { afterEach, describe, expect, it } from "vitest";
import { EnvError, getEnv, resetEnv } from "@/lib/env";

const saved = { CRON_SECRET: process.env.CRON_SECRET, DNS_RESOLVERS: process.env.DNS_RESOLVERS };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
});

function withEnv(values: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
  return getEnv;
}

describe("CRON_SECRET", () => {
  it("shorter than 32 characters refuses to start, naming the variable (not the value)", () => {
    const secret = "x".repeat(31);
    const load = withEnv({ CRON_SECRET: secret });
    expect(load).toThrow(EnvError);
    expect(load).toThrow(/CRON_SECRET is too short \(31 characters; at least 32/);
    try {
      load();
    } catch (err) {
      expect(String(err)).not.toContain(secret);
    }
  });

  it("of 32 characters or more is accepted, and unset or empty means the cron routes don't exist", () => {
    expect(withEnv({ CRON_SECRET: "y".repeat(32) })().CRON_SECRET).toBe("y".repeat(32));
    expect(withEnv({ CRON_SECRET: "" })().CRON_SECRET).toBeUndefined();
    expect(withEnv({ CRON_SECRET: undefined })().CRON_SECRET).toBeUndefined();
  });
});

describe("DNS_RESOLVERS", () => {
  it("takes comma-separated IP addresses with optional ports", () => {
    expect(withEnv({ DNS_RESOLVERS: "1.1.1.1, 10.0.0.2:5353,[2606:4700::1111]:53, ::1" })().DNS_RESOLVERS).toEqual([
      "1.1.1.1",
      "10.0.0.2:5353",
      "[2606:4700::1111]:53",
      "::1",
    ]);
    expect(withEnv({ DNS_RESOLVERS: undefined })().DNS_RESOLVERS).toBeUndefined();
  });

  it.each(["dns.example.org", "1.1.1.1:0", "1.1.1.1:99999", "1.1.1", "[1.1.1.1]:53", "1.1.1.1,", "2606:4700::1111:53:x"])(
    "refuses %j, naming the variable",
    (value) => {
      const load = withEnv({ DNS_RESOLVERS: value });
      expect(load).toThrow(EnvError);
      expect(load).toThrow(/DNS_RESOLVERS: Must be comma-separated IP addresses with optional ports/);
    },
  );
});
