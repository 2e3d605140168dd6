import { createHmac, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { EnvError, getEnv } from "@/lib/env";

/**
 * The socket address of the connection, written on every request by our HTTP server
 * (server/client-ip.ts), together with CLIENT_IP_PROOF_HEADER: an HMAC of the address under a
 * random key the server makes at start-up. A value without a valid proof was not set by our
 * server (a client sent it, or the app runs under `next start` or another host) and is ignored.
 */
export const CLIENT_IP_HEADER = "x-goodfund-client-ip";
export const CLIENT_IP_PROOF_HEADER = "x-goodfund-client-ip-proof";

/**
 * The environment variable through which our server hands the app its per-process key
 * (base64url, 32 bytes): set by the server itself at start-up, before Next.js loads, and never
 * by an operator. Each server process of a cluster has its own key and proves only the requests
 * it receives itself.
 */
export const CLIENT_IP_KEY_ENV = "GOODFUND_CLIENT_IP_KEY";

/** What a request's headers look like to this module: a Request's, or `await headers()` in a page. */
type HeaderSource = Request | { get(name: string): string | null };

function headersOf(source: HeaderSource): { get(name: string): string | null } {
  return source instanceof Request ? source.headers : source;
}

let decodedKey: { raw: string; key: Buffer | undefined } | undefined;

/** The key our server handed over, or undefined when the app runs without it. */
function processKey(): Buffer | undefined {
  const raw = process.env[CLIENT_IP_KEY_ENV] ?? "";
  if (decodedKey?.raw !== raw) {
    const key = Buffer.from(raw, "base64url");
    decodedKey = { raw, key: key.length >= 16 ? key : undefined };
  }
  return decodedKey.key;
}

/**
 * A production server must tell its clients apart (rate limits, the card-testing count, holds
 * per client): by the socket addresses our own server proves, or by the X-Forwarded-For of
 * TRUST_PROXY trusted proxies. Without either (`next start`, a platform running Next.js itself,
 * with no TRUST_PROXY) every client would be "unknown" and share one bucket: refuse to start.
 */
export function assertClientsCanBeToldApart(): void {
  if (process.env.NODE_ENV !== "production" || getEnv().TRUST_PROXY > 0 || processKey() !== undefined) return;
  throw new EnvError(
    "TRUST_PROXY is not set and the app runs without its own server (`npm start`), so it cannot tell its clients apart " +
      "(every one would share one rate limit). Behind a proxy or a platform that runs Next.js, set TRUST_PROXY to the " +
      "number of proxies in front of the app (TRUST_PROXY=1 for one); otherwise start it with `npm start`.",
  );
}

/** The proof our server sends beside an address (server/client-ip.ts computes it the same way). */
export function clientIpProof(address: string, key: Buffer): string {
  return createHmac("sha256", key).update(address).digest("base64url");
}

/**
 * The address of the peer that opened the connection, as our server saw it (IPv4-mapped IPv6
 * written as IPv4), or null when no proven address came with the request. Behind a proxy this
 * is the proxy. Use it for "is this a loopback client?" checks; rate limits use `clientIpOf`.
 */
export function socketAddressOf(source: HeaderSource): string | null {
  const headers = headersOf(source);
  const address = headers.get(CLIENT_IP_HEADER);
  const proof = headers.get(CLIENT_IP_PROOF_HEADER);
  const key = processKey();
  if (!address || !proof || !key) return null;
  const known = provenAddress(address, key);
  const given = Buffer.from(proof);
  if (known.proof.length !== given.length || !timingSafeEqual(known.proof, given)) return null;
  return known.parsed;
}

type Proven = { proof: Buffer; parsed: string | null };
/** Per key: each address's expected proof and parsed form, computed once (clients come back). */
const proven = new WeakMap<Buffer, Map<string, Proven>>();
const PROVEN_MAX = 4096;

function provenAddress(address: string, key: Buffer): Proven {
  let byAddress = proven.get(key);
  if (!byAddress) proven.set(key, (byAddress = new Map()));
  let known = byAddress.get(address);
  if (!known) {
    // Bounded: a flood of distinct addresses starts the table over instead of growing it.
    if (byAddress.size >= PROVEN_MAX) byAddress.clear();
    known = { proof: Buffer.from(clientIpProof(address, key)), parsed: parseAddress(address) };
    byAddress.set(address, known);
  }
  return known;
}

/** True for 127.0.0.0/8 and ::1 (the sandbox-only pages answer such clients only). */
export function isLoopbackAddress(address: string | null): boolean {
  if (!address) return false;
  const ip = parseAddress(address);
  if (!ip) return false;
  if (isIP(ip) === 4) return ip.startsWith("127.");
  const groups = ipv6Groups(ip);
  return !!groups && groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1;
}

/**
 * The client's address for rate limits and abuse counters: IPv4 as is, IPv6 as its /64
 * (`2001:db8:1:2::/64`; one subscriber usually holds a whole /64), "unknown" when there is no
 * trustworthy address (all such requests share one bucket).
 *
 * With TRUST_PROXY=N (N proxies in front of the app, each appending the address it saw to
 * X-Forwarded-For) the address is the N-th entry from the right: what the outermost trusted
 * proxy saw. Entries further left were sent by the client and are never used. A header with
 * fewer than N entries means the request crossed fewer proxies (say, reached the inner one
 * directly); its leftmost entry was still appended by a trusted proxy, so that one is used.
 * Without the header, or when the chosen entry is not an IP address, the socket address is used.
 */
export function clientIpOf(source: HeaderSource): string {
  const address = forwardedAddress(headersOf(source)) ?? socketAddressOf(source);
  return address ? rateLimitKey(address) : "unknown";
}

function forwardedAddress(headers: { get(name: string): string | null }): string | null {
  const hops = getEnv().TRUST_PROXY;
  if (!hops) return null;
  // Several X-Forwarded-For headers arrive joined by ", " (in order), like one list.
  const raw = headers.get("x-forwarded-for");
  if (!raw) return null;
  const entries = raw.split(",").map((e) => e.trim());
  const chosen = entries[Math.max(0, entries.length - hops)];
  return parseAddress(chosen ?? "");
}

/**
 * An IP literal out of a header entry ("1.2.3.4", "1.2.3.4:5678", "[2001:db8::1]:443",
 * "2001:db8::1", "fe80::1%eth0"), IPv4-mapped IPv6 written as IPv4; null when it is not one.
 */
export function parseAddress(entry: string): string | null {
  let s = entry.trim().replace(/^"|"$/g, "");
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(s)) s = s.slice(0, s.lastIndexOf(":"));
  s = s.replace(/%.*$/, "").toLowerCase();
  const version = isIP(s);
  if (version === 4) return s;
  if (version !== 6) return null;
  const groups = ipv6Groups(s);
  if (!groups) return null;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  return s;
}

/** The bucket an address counts in: IPv4 itself, IPv6 its /64. */
export function rateLimitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (!groups) return "unknown";
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 literal (a dotted IPv4 tail counts as two). */
function ipv6Groups(address: string): number[] | null {
  let s = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}
