import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import {
  CLIENT_IP_HEADER,
  CLIENT_IP_KEY_ENV,
  CLIENT_IP_PROOF_HEADER,
  isLoopbackAddress,
  parseAddress,
  rateLimitKey,
  socketAddressOf,
} from "@/lib/api/client-ip";
import { serverClientIpHeaders } from "../helpers/api";

describe("parseAddress", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["203.0.113.7:51234", "203.0.113.7"],
    ["[2001:DB8::1]:443", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["2001:db8::1", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::ffff:c000:201", "192.0.2.1"],
    ["::1", "::1"],
  ])("reads %j as %j", (entry, expected) => {
    expect(parseAddress(entry)).toBe(expected);
  });

  it.each([
    "",
    "unknown",
    "_hidden",
    "203.0.113",
    "203.0.113.300",
    "01.2.3.4",
    "example.org",
    "1.2.3.4:123456",
    "2001:db8::1::2",
    "<script>",
  ])("refuses %j", (entry) => {
    expect(parseAddress(entry)).toBeNull();
  });
});

describe("rateLimitKey", () => {
  it("keeps IPv4 addresses and groups IPv6 ones by /64", () => {
    expect(rateLimitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(rateLimitKey("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(rateLimitKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(rateLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });
});

describe("isLoopbackAddress", () => {
  it("is true for 127.0.0.0/8, ::1 and their mapped forms only", () => {
    for (const ip of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) expect(isLoopbackAddress(ip), ip).toBe(true);
    for (const ip of ["10.0.0.1", "::", "::2", "2001:db8::1", "unknown", "", null]) expect(isLoopbackAddress(ip), String(ip)).toBe(false);
  });
});

describe("socketAddressOf", () => {
  it("returns the address our server proved, and null for one without a valid proof", () => {
    expect(socketAddressOf(new Headers(serverClientIpHeaders("::ffff:127.0.0.1")))).toBe("127.0.0.1");
    expect(socketAddressOf(new Request("http://localhost/", { headers: serverClientIpHeaders("203.0.113.7") }))).toBe("203.0.113.7");
    expect(socketAddressOf(new Headers({ [CLIENT_IP_HEADER]: "127.0.0.1" }))).toBeNull();
    expect(socketAddressOf(new Headers({ ...serverClientIpHeaders("203.0.113.7"), [CLIENT_IP_HEADER]: "127.0.0.1" }))).toBeNull();
  });

  it("keeps checking every proof once an address was proved, past the size of its table, and under another process key", () => {
    const headers = serverClientIpHeaders("198.51.100.1");
    expect(socketAddressOf(new Headers(headers))).toBe("198.51.100.1");
    // The address is known now; another proof for it is still refused.
    expect(
      socketAddressOf(
        new Headers({
          ...headers,
          [CLIENT_IP_PROOF_HEADER]: headers[CLIENT_IP_PROOF_HEADER].replace(/^./, (c) => (c === "A" ? "B" : "A")),
        }),
      ),
    ).toBeNull();
    // Five thousand distinct addresses (more than the table keeps) are each proved and each refused with another's proof.
    for (let i = 0; i < 5000; i++) {
      const ip = `10.${(i >> 8) & 255}.${i & 255}.9`;
      expect(socketAddressOf(new Headers(serverClientIpHeaders(ip)))).toBe(ip);
      expect(socketAddressOf(new Headers({ ...serverClientIpHeaders(ip), [CLIENT_IP_HEADER]: "198.51.100.1" }))).toBeNull();
    }
    expect(socketAddressOf(new Headers(headers))).toBe("198.51.100.1");
    // A new process key (another server process) does not accept the old key's proofs.
    const old = process.env[CLIENT_IP_KEY_ENV];
    process.env[CLIENT_IP_KEY_ENV] = randomBytes(32).toString("base64url");
    try {
      expect(socketAddressOf(new Headers(headers))).toBeNull();
    } finally {
      process.env[CLIENT_IP_KEY_ENV] = old;
    }
  });
});
