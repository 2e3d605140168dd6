import dns from "node:dns";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isGlobalUnicast, resolveTarget, specialPurposeRange, UnsafeUrlError } from "@/lib/webhooks-out/ssrf";

afterEach(() => vi.restoreAllMocks());

const F = "ffff:ffff:ffff:ffff:ffff:ffff";

/**
 * Every refused range: its first and last address (and a sample inside), and the neighbours just
 * outside it that are global unicast (none listed where the neighbours are refused too).
 */
const V4: [cidr: string, inside: string[], outside: string[]][] = [
  ["0.0.0.0/8", ["0.0.0.0", "0.1.2.3", "0.255.255.255"], ["1.0.0.0"]],
  ["10.0.0.0/8", ["10.0.0.0", "10.0.0.1", "10.255.255.255"], ["9.255.255.255", "11.0.0.0"]],
  ["100.64.0.0/10", ["100.64.0.0", "100.100.100.200", "100.127.255.255"], ["100.63.255.255", "100.128.0.0"]],
  ["127.0.0.0/8", ["127.0.0.0", "127.0.0.1", "127.255.255.255"], ["126.255.255.255", "128.0.0.0"]],
  ["169.254.0.0/16", ["169.254.0.0", "169.254.169.254", "169.254.255.255"], ["169.253.255.255", "169.255.0.0"]],
  ["172.16.0.0/12", ["172.16.0.0", "172.20.1.1", "172.31.255.255"], ["172.15.255.255", "172.32.0.0"]],
  ["192.0.0.0/24", ["192.0.0.0", "192.0.0.9", "192.0.0.255"], ["191.255.255.255", "192.0.1.0"]],
  ["192.0.2.0/24", ["192.0.2.0", "192.0.2.1", "192.0.2.255"], ["192.0.1.255", "192.0.3.0"]],
  ["192.31.196.0/24", ["192.31.196.0", "192.31.196.255"], ["192.31.195.255", "192.31.197.0"]],
  ["192.52.193.0/24", ["192.52.193.0", "192.52.193.255"], ["192.52.192.255", "192.52.194.0"]],
  ["192.88.99.0/24", ["192.88.99.0", "192.88.99.1", "192.88.99.255"], ["192.88.98.255", "192.88.100.0"]],
  ["192.168.0.0/16", ["192.168.0.0", "192.168.1.1", "192.168.255.255"], ["192.167.255.255", "192.169.0.0"]],
  ["192.175.48.0/24", ["192.175.48.0", "192.175.48.255"], ["192.175.47.255", "192.175.49.0"]],
  ["198.18.0.0/15", ["198.18.0.0", "198.19.255.255"], ["198.17.255.255", "198.20.0.0"]],
  ["198.51.100.0/24", ["198.51.100.0", "198.51.100.255"], ["198.51.99.255", "198.51.101.0"]],
  ["203.0.113.0/24", ["203.0.113.0", "203.0.113.10", "203.0.113.255"], ["203.0.112.255", "203.0.114.0"]],
  ["224.0.0.0/4", ["224.0.0.0", "239.255.255.250", "239.255.255.255"], ["223.255.255.255"]],
  ["240.0.0.0/4", ["240.0.0.0", "250.1.2.3", "255.255.255.254"], []],
  ["255.255.255.255/32", ["255.255.255.255"], []],
];

const V6: [cidr: string, inside: string[], outside: string[]][] = [
  ["::/128", ["::", "0:0:0:0:0:0:0:0"], []],
  ["::1/128", ["::1", "[::1]", "0:0:0:0:0:0:0:1"], []],
  ["64:ff9b::/96", ["64:ff9b::", "64:ff9b::8.8.8.8", "64:ff9b::a9fe:a9fe", "64:ff9b::ffff:ffff"], []],
  ["64:ff9b:1::/48", ["64:ff9b:1::", "64:ff9b:1::808:808", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff"], []],
  ["100::/64", ["100::", "100::1", "100::ffff:ffff:ffff:ffff"], []],
  ["2001::/23", ["2001::", "2001:2::1", "2001:1ff:" + F], ["2000:ffff:" + F, "2001:200::"]],
  ["2001::/23", ["2001:0:4136:e378:8000:63bf:3fff:fdd2" /* Teredo, 2001::/32 */, "2001:0:" + F], []],
  [
    "2001:db8::/32",
    ["2001:db8::", "[2001:db8::1]", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"],
    ["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::"],
  ],
  ["2002::/16", ["2002::", "2002:808:808::1", "2002:7f00:1::", "2002:ffff:" + F], ["2003::", "2001:ffff:" + F]],
  ["3fff::/20", ["3fff::", "3fff:fff:" + F], ["3ffe:ffff:" + F, "3fff:1000::", "3fff:ffff:" + F]],
  ["5f00::/16", ["5f00::", "5f00:ffff:" + F], []],
  ["fc00::/7", ["fc00::", "fd12:3456:789a::1", "fdff:ffff:" + F], []],
  ["fe80::/10", ["fe80::", "fe80::1", "fe80::1%eth0", "febf:ffff:" + F], []],
  ["ff00::/8", ["ff00::", "ff02::1", "FF05::1:3", "ffff:ffff:" + F], []],
];

/**
 * Each range's addresses inside are refused, naming the range; those just outside are not in it
 * (and, with `outsideIsGlobal`, are global unicast addresses).
 */
function rangeCases(ranges: [cidr: string, inside: string[], outside: string[]][], { outsideIsGlobal }: { outsideIsGlobal: boolean }) {
  for (const [cidr, inside, outside] of ranges) {
    it.each(inside)(`%s is refused (${cidr})`, (ip) => {
      expect(specialPurposeRange(ip)).toMatch(new RegExp(`^${cidr.replace(/\./g, "\\.")} \\(`));
      expect(isGlobalUnicast(ip)).toBe(false);
    });
    if (outside.length > 0) {
      it.each(outside)(`%s, just outside ${cidr}, is allowed`, (ip) => {
        expect(specialPurposeRange(ip)).toBeNull();
        if (outsideIsGlobal) expect(isGlobalUnicast(ip)).toBe(true);
      });
    }
  }
}

describe("specialPurposeRange: IPv4", () => {
  rangeCases(V4, { outsideIsGlobal: true });

  it.each(["8.8.8.8", "1.1.1.1", "93.184.215.14", "223.255.255.255", "11.0.0.1", "128.0.0.1"])("%s is allowed", (ip) => {
    expect(isGlobalUnicast(ip)).toBe(true);
  });

  it("names the range", () => {
    expect(specialPurposeRange("127.0.0.1")).toBe("127.0.0.0/8 (loopback)");
    expect(specialPurposeRange("169.254.169.254")).toBe("169.254.0.0/16 (link-local)");
  });

  it.each(["256.1.1.1", "1.2.3", "1.2.3.4.5", "a.b.c.d", "", "localhost", "1.2.3.-4"])("%j is not an address, so refused", (ip) => {
    expect(specialPurposeRange(ip)).toBe("invalid address");
    expect(isGlobalUnicast(ip)).toBe(false);
  });
});

describe("specialPurposeRange: IPv6", () => {
  rangeCases(V6, { outsideIsGlobal: false });

  it.each([
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:81c::200e",
    "[2a00:1450:4001:81c::200e]",
    "2000::",
    "3fff:ffff:" + F,
  ])("%s is allowed", (ip) => {
    expect(isGlobalUnicast(ip)).toBe(true);
  });

  it.each(["::2", "::127.0.0.1", "::7f00:1", "1fff:ffff:" + F, "4000::", "4000::1", "5eff::1", "fec0::1", "fe7f::1", "e000::"])(
    "%s is outside 2000::/3, so refused",
    (ip) => {
      expect(specialPurposeRange(ip)).toBe("outside 2000::/3 (not global unicast)");
    },
  );

  it.each(["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::1", ":::", "1:2:3:4:5:6:7"])("%j is not an address, so refused", (ip) => {
    expect(specialPurposeRange(ip)).toBe("invalid address");
  });
});

describe("specialPurposeRange: IPv4-mapped IPv6 (::ffff:0:0/96) is judged by the IPv4 address", () => {
  it.each([
    ["::ffff:127.0.0.1", "127.0.0.0/8"],
    ["::ffff:7f00:1", "127.0.0.0/8"],
    ["[::ffff:7f00:1]", "127.0.0.0/8"],
    ["::FFFF:10.1.2.3", "10.0.0.0/8"],
    ["::ffff:a9fe:a9fe", "169.254.0.0/16"],
    ["0:0:0:0:0:ffff:192.168.0.1", "192.168.0.0/16"],
    ["::ffff:100.64.1.1", "100.64.0.0/10"],
    ["::ffff:0.0.0.0", "0.0.0.0/8"],
    ["::ffff:192.0.2.1", "192.0.2.0/24"],
    ["::ffff:198.18.0.1", "198.18.0.0/15"],
    ["::ffff:255.255.255.255", "255.255.255.255/32"],
  ])("%s is refused (%s)", (ip, cidr) => {
    expect(specialPurposeRange(ip)).toMatch(new RegExp(`^${cidr.replace(/\./g, "\\.")} \\(`));
  });

  it.each(["::ffff:8.8.8.8", "::ffff:808:808", "0:0:0:0:0:ffff:0101:0101", "::ffff:93.184.215.14"])("%s is allowed", (ip) => {
    expect(isGlobalUnicast(ip)).toBe(true);
  });

  it("rejects a malformed embedded quad", () => {
    expect(specialPurposeRange("::ffff:127.0.0.256")).toBe("invalid address");
    expect(specialPurposeRange("::ffff:127.0.1")).toBe("invalid address");
  });
});

describe("resolveTarget", () => {
  it("checks IP literals without DNS", async () => {
    const lookup = vi.spyOn(dns.promises, "lookup");
    await expect(resolveTarget("8.8.8.8", { allowPrivate: false })).resolves.toEqual({ address: "8.8.8.8", family: 4 });
    await expect(resolveTarget("[2606:4700:4700::1111]", { allowPrivate: false })).resolves.toEqual({
      address: "2606:4700:4700::1111",
      family: 6,
    });
    await expect(resolveTarget("127.0.0.1", { allowPrivate: false })).rejects.toThrow(UnsafeUrlError);
    await expect(resolveTarget("[::1]", { allowPrivate: false })).rejects.toThrow(
      "Refused: the URL must resolve to a public internet address",
    );
    await expect(resolveTarget("[2001:db8::1]", { allowPrivate: false })).rejects.toThrow(UnsafeUrlError);
    await expect(resolveTarget("203.0.113.7", { allowPrivate: false })).rejects.toThrow(UnsafeUrlError);
    await expect(resolveTarget("127.0.0.1", { allowPrivate: true })).resolves.toEqual({ address: "127.0.0.1", family: 4 });
    expect(lookup).not.toHaveBeenCalled();
  });

  it("refuses a name when any of its addresses is not global, without saying which, and answers the checked address otherwise", async () => {
    const answers: Record<string, { address: string; family: number }[]> = {
      "public.example": [
        { address: "93.184.215.14", family: 4 },
        { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
      ],
      "mixed.example": [
        { address: "93.184.215.14", family: 4 },
        { address: "10.0.0.5", family: 4 },
      ],
      "mapped.example": [{ address: "::ffff:169.254.169.254", family: 6 }],
      "nat64.example": [{ address: "64:ff9b::a00:5", family: 6 }],
    };
    vi.spyOn(dns.promises, "lookup").mockImplementation((async (host: string) => {
      const found = answers[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      return found;
    }) as never);
    await expect(resolveTarget("public.example", { allowPrivate: false })).resolves.toEqual({ address: "93.184.215.14", family: 4 });
    const mixed = await resolveTarget("mixed.example", { allowPrivate: false }).catch((e) => e);
    expect(mixed).toBeInstanceOf(UnsafeUrlError);
    expect(mixed.message).toBe("Refused: the URL must resolve to a public internet address");
    expect(mixed.message).not.toContain("10.0.0.5");
    await expect(resolveTarget("mapped.example", { allowPrivate: false })).rejects.toThrow(UnsafeUrlError);
    await expect(resolveTarget("nat64.example", { allowPrivate: false })).rejects.toThrow(UnsafeUrlError);
    await expect(resolveTarget("mixed.example", { allowPrivate: true })).resolves.toEqual({ address: "93.184.215.14", family: 4 });
    const missing = await resolveTarget("nowhere.example", { allowPrivate: false }).catch((e) => e);
    expect(missing).toBeInstanceOf(UnsafeUrlError);
    expect(missing).toMatchObject({ reason: "unresolvable" });
  });

  it("resolves localhost to a loopback address and refuses it", async () => {
    const err = await resolveTarget("localhost", { allowPrivate: false }).catch((e) => e);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect(err).toMatchObject({ reason: "refused" });
  });
});
