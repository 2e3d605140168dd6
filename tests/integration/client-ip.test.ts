import { randomInt } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER, CLIENT_IP_PROOF_HEADER } from "@/lib/api/client-ip";
import { resetEnv } from "@/lib/env";
import { get, randomIp, serverClientIpHeaders, type CallOptions } from "../helpers/api";
import { startInsideWindow } from "../helpers/rate-window";

// Which rate-limit bucket a request lands in shows which client address the app settled on:
// an unauthenticated call to a user route counts against the public limit of the client's IP.
async function remaining(opts: CallOptions): Promise<number> {
  const res = await get("/api/orgs", opts);
  expect(res.status).toBe(401);
  return Number(res.headers.get("x-ratelimit-remaining"));
}

/** Two requests share a bucket when the second sees one request fewer left. */
async function sameBucket(a: CallOptions, b: CallOptions): Promise<boolean> {
  await startInsideWindow(2_000);
  const first = await remaining(a);
  const second = await remaining(b);
  return second === first - 1;
}

const octet = () => randomInt(1, 255);
const publicIp = () => `203.0.${octet()}.${octet()}`;
const spoofed = () => `198.51.${octet()}.${octet()}`;
const v6net = () => `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}`;

function trustProxies(n: number) {
  process.env.TRUST_PROXY = String(n);
  resetEnv();
}

afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetEnv();
});

describe("client IP from our server's socket address", () => {
  it("public requests from one socket address share a bucket, another address has its own", async () => {
    const ip = randomIp();
    expect(await sameBucket({ ip }, { ip })).toBe(true);
    expect(await sameBucket({ ip }, { ip: randomIp() })).toBe(false);
  });

  it("ignores X-Forwarded-For without TRUST_PROXY", async () => {
    const ip = randomIp();
    const a = { ip, headers: { "x-forwarded-for": publicIp() } };
    const b = { ip, headers: { "x-forwarded-for": publicIp() } };
    expect(await sameBucket(a, b)).toBe(true);
  });

  it("ignores a client-sent client-IP header: without our server's proof every such request is one unknown client", async () => {
    // As under `next dev` (not behind our server): whatever the client claims, it is not believed.
    const claims = (ip: string) => ({ ip: null, headers: { [CLIENT_IP_HEADER]: ip } });
    expect(await sameBucket(claims(randomIp()), claims(randomIp()))).toBe(true);
    const forged = (ip: string) => ({ ip: null, headers: { [CLIENT_IP_HEADER]: ip, [CLIENT_IP_PROOF_HEADER]: "forged-proof" } });
    expect(await sameBucket(forged(randomIp()), forged(randomIp()))).toBe(true);
    // ... and that one bucket is the same "unknown" one.
    expect(await sameBucket(claims(randomIp()), forged(randomIp()))).toBe(true);
  });

  it("a proof made for one address does not vouch for another", async () => {
    const real = serverClientIpHeaders(randomIp());
    const swapped = (ip: string) => ({ ip: null, headers: { ...real, [CLIENT_IP_HEADER]: ip } });
    const unknown = { ip: null, headers: {} };
    expect(await sameBucket(swapped(randomIp()), unknown)).toBe(true);
  });

  it("groups IPv6 clients by /64: addresses in one /64 share a bucket, another /64 has its own", async () => {
    const net = v6net();
    expect(await sameBucket({ ip: `${net}::1` }, { ip: `${net}:ffff:1:2:3` })).toBe(true);
    expect(await sameBucket({ ip: `${net}:0:0:0:7` }, { ip: `${net}::8` })).toBe(true);
    expect(await sameBucket({ ip: `${net}::1` }, { ip: `${v6net()}::1` })).toBe(false);
  });

  it("counts an IPv4-mapped IPv6 socket address as the IPv4 address", async () => {
    const ip = randomIp();
    expect(await sameBucket({ ip: `::ffff:${ip}` }, { ip })).toBe(true);
  });
});

describe("client IP behind trusted proxies (TRUST_PROXY=N)", () => {
  it("TRUST_PROXY=1 uses the rightmost X-Forwarded-For entry; a spoofed leftmost entry changes nothing", async () => {
    trustProxies(1);
    const client = publicIp();
    const a = { headers: { "x-forwarded-for": `${spoofed()}, ${client}` } };
    const b = { headers: { "x-forwarded-for": `${spoofed()}, ${spoofed()}, ${client}` } };
    expect(await sameBucket(a, b)).toBe(true);
    expect(await sameBucket(a, { headers: { "x-forwarded-for": client } })).toBe(true);
    // The socket address (the proxy) plays no part while the header is usable.
    expect(
      await sameBucket(
        { ip: randomIp(), headers: { "x-forwarded-for": client } },
        { ip: randomIp(), headers: { "x-forwarded-for": client } },
      ),
    ).toBe(true);
    expect(await sameBucket(a, { headers: { "x-forwarded-for": `${client}, ${publicIp()}` } })).toBe(false);
  });

  it("TRUST_PROXY=2 uses the second entry from the right; entries left of it are ignored", async () => {
    trustProxies(2);
    const client = publicIp();
    const proxy = "10.0.0.1";
    const a = { headers: { "x-forwarded-for": `${spoofed()}, ${client}, ${proxy}` } };
    const b = { headers: { "x-forwarded-for": `${spoofed()}, ${spoofed()}, ${client}, 10.0.0.2` } };
    expect(await sameBucket(a, b)).toBe(true);
    expect(await sameBucket(a, { headers: { "x-forwarded-for": `${publicIp()}, ${proxy}` } })).toBe(false);
  });

  it("joins several X-Forwarded-For headers in order, as one list", async () => {
    trustProxies(2);
    const client = publicIp();
    const split = new Headers();
    split.append("x-forwarded-for", `${spoofed()}, ${client}`);
    split.append("x-forwarded-for", "10.0.0.1");
    const joined = { headers: Object.fromEntries(split) };
    expect(joined.headers["x-forwarded-for"]).toMatch(new RegExp(`, ${client.replace(/\./g, "\\.")}, 10\\.0\\.0\\.1$`));
    expect(await sameBucket(joined, { headers: { "x-forwarded-for": `${client}, 10.0.0.9` } })).toBe(true);
  });

  it("with fewer entries than trusted proxies, uses the leftmost (appended by a trusted proxy)", async () => {
    trustProxies(3);
    const client = publicIp();
    expect(await sameBucket({ headers: { "x-forwarded-for": `${client}, 10.0.0.1` } }, { headers: { "x-forwarded-for": client } })).toBe(
      true,
    );
  });

  it("reads ports and brackets, and groups forwarded IPv6 clients by /64", async () => {
    trustProxies(1);
    const client = publicIp();
    expect(await sameBucket({ headers: { "x-forwarded-for": `${client}:51234` } }, { headers: { "x-forwarded-for": client } })).toBe(true);
    const net = v6net();
    expect(await sameBucket({ headers: { "x-forwarded-for": `[${net}::1]:443` } }, { headers: { "x-forwarded-for": `${net}::2` } })).toBe(
      true,
    );
  });

  it("falls back to the socket address when the chosen entry is not an IP address, or there is no header", async () => {
    trustProxies(1);
    const ip = randomIp();
    expect(
      await sameBucket({ ip, headers: { "x-forwarded-for": "unknown" } }, { ip, headers: { "x-forwarded-for": `${publicIp()}, _hidden` } }),
    ).toBe(true);
    expect(await sameBucket({ ip, headers: { "x-forwarded-for": "<script>" } }, { ip })).toBe(true);
  });
});
