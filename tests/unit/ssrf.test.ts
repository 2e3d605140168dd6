import dns from "node:dns";
import { afterEach, describe, expect, it, vi } from "vitest";
import { classifyAddress, isPublicAddress, resolveTarget, UnsafeUrlError } from "@/lib/webhooks-out/ssrf";

afterEach(() => vi.restoreAllMocks());

describe("classifyAddress: IPv4", () => {
  it.each([
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
  ])("%s is %s", (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(["8.8.8.8", "1.1.1.1", "93.184.215.14", "172.15.255.255", "172.32.0.1", "192.167.255.255", "192.169.0.1", "100.63.255.255", "100.128.0.0", "169.253.255.255", "203.0.113.10", "223.255.255.255", "11.0.0.1", "126.255.255.255", "128.0.0.1"])(
    "%s is public",
    (ip) => {
      expect(classifyAddress(ip)).toBe("public");
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it.each(["256.1.1.1", "1.2.3", "1.2.3.4.5", "a.b.c.d", "", "localhost", "1.2.3.-4"])("%j is invalid", (ip) => {
    expect(classifyAddress(ip)).toBe("invalid");
  });
});

describe("classifyAddress: IPv6", () => {
  it.each([
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["FF05::1:3", "multicast"],
  ])("%s is %s", (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(["2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001:81c::200e", "[2001:db8::1]", "fe7f::1", "fbff::1"])("%s is public", (ip) => {
    expect(classifyAddress(ip)).toBe("public");
  });

  it.each(["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::1", ":::", "1:2:3:4:5:6:7"])("%j is invalid", (ip) => {
    expect(classifyAddress(ip)).toBe("invalid");
  });
});

describe("classifyAddress: IPv4 inside IPv6", () => {
  it.each([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:169.254.169.254", "link-local"],
    ["0:0:0:0:0:ffff:192.168.0.1", "private"],
    ["::ffff:100.64.1.1", "cgnat"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:7f00:1::", "loopback"],
    ["2002:c0a8:101::1", "private"],
  ])("%s is %s", (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it.each(["::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::8.8.8.8", "2002:808:808::1"])("%s is public", (ip) => {
    expect(classifyAddress(ip)).toBe("public");
  });

  it("rejects a malformed embedded quad", () => {
    expect(classifyAddress("::ffff:127.0.0.256")).toBe("invalid");
    expect(classifyAddress("::ffff:127.0.1")).toBe("invalid");
  });
});

describe("resolveTarget", () => {
  it("checks IP literals without DNS", async () => {
    const lookup = vi.spyOn(dns.promises, "lookup");
    await expect(resolveTarget("8.8.8.8", { allowPrivate: false })).resolves.toEqual({ address: "8.8.8.8", family: 4 });
    await expect(resolveTarget("[2606:4700:4700::1111]", { allowPrivate: false })).resolves.toEqual({ address: "2606:4700:4700::1111", family: 6 });
    await expect(resolveTarget("127.0.0.1", { allowPrivate: false })).rejects.toThrow(UnsafeUrlError);
    await expect(resolveTarget("[::1]", { allowPrivate: false })).rejects.toThrow(/loopback/);
    await expect(resolveTarget("127.0.0.1", { allowPrivate: true })).resolves.toEqual({ address: "127.0.0.1", family: 4 });
    expect(lookup).not.toHaveBeenCalled();
  });

  it("refuses a name when any of its addresses is private, and answers the checked address otherwise", async () => {
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
    };
    vi.spyOn(dns.promises, "lookup").mockImplementation((async (host: string) => {
      const found = answers[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      return found;
    }) as never);
    await expect(resolveTarget("public.example", { allowPrivate: false })).resolves.toEqual({ address: "93.184.215.14", family: 4 });
    await expect(resolveTarget("mixed.example", { allowPrivate: false })).rejects.toThrow("Refused: mixed.example resolves to 10.0.0.5, a private address");
    await expect(resolveTarget("mapped.example", { allowPrivate: false })).rejects.toThrow(/link-local/);
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
