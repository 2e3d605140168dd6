import dns from "node:dns";
import { isIP } from "node:net";

/**
 * Where an outbound webhook may connect. Only `public` addresses are allowed (unless
 * ALLOW_PRIVATE_WEBHOOK_URLS=1): anything else would let an organization's admin make the
 * server call into its own network (cloud metadata at 169.254.169.254, databases on 10/8, …).
 */
export type AddressClass =
  | "public"
  | "private"
  | "loopback"
  | "link-local"
  | "unique-local"
  | "unspecified"
  | "cgnat"
  | "multicast"
  | "reserved"
  | "invalid";

type Range4 = [base: number, bits: number, cls: AddressClass];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const V4_RANGES: Range4[] = [
  [v4(0, 0, 0, 0), 8, "unspecified"], // "this network"; 0.0.0.0 reaches the local host on Linux
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "cgnat"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link-local"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved"], // includes the broadcast address 255.255.255.255
];

function parseV4(ip: string): number | null {
  const parts = ip.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return v4(Number(parts[0]), Number(parts[1]), Number(parts[2]), Number(parts[3]));
}

function classifyV4(n: number): AddressClass {
  for (const [base, bits, cls] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === base) return cls;
  }
  return "public";
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted quad allowed), or null. */
function parseV6(ip: string): number[] | null {
  let text = ip.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    // `::ffff:127.0.0.1` → `::ffff:7f00:1`
    const quad = parseV4(last);
    if (quad === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(quad >>> 16).toString(16)}:${(quad & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  return [...head, ...new Array<string>(8 - known).fill("0"), ...rest].map((g) => parseInt(g, 16));
}

function classifyV6(g: number[]): AddressClass {
  const embedded = () => classifyV4(((g[6] << 16) | g[7]) >>> 0);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d) forms: judged by the IPv4 address.
  if (zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)) return embedded();
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address through the gateway.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded();
  // 6to4 (2002::/16) carries an IPv4 address in bits 16–47.
  if (g[0] === 0x2002) return classifyV4(((g[1] << 16) | g[2]) >>> 0);
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0] & 0xffc0) === 0xfec0) return "private"; // site-local, deprecated
  if ((g[0] & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  return "public";
}

/** What kind of address `ip` is (IPv4, IPv6, IPv4-mapped IPv6; brackets and zone IDs allowed). */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const n = parseV4(bare);
  if (n !== null) return classifyV4(n);
  if (!bare.includes(":")) return "invalid";
  const groups = parseV6(bare);
  return groups ? classifyV6(groups) : "invalid";
}

export const isPublicAddress = (ip: string) => classifyAddress(ip) === "public";

/** A destination refused because it is (or resolves to) a non-public address, or does not resolve. */
export class UnsafeUrlError extends Error {
  constructor(
    message: string,
    /** "refused": a non-public address or scheme; "unresolvable": the name did not resolve (now). */
    readonly reason: "refused" | "unresolvable" = "refused",
  ) {
    super(message);
    this.name = "UnsafeUrlError";
  }
}

export type ResolvedTarget = { address: string; family: 4 | 6 };

/**
 * Resolves `hostname` (as `URL.hostname` gives it) and checks every address it has: one private
 * address among public ones is enough to refuse, since the connection could land on either.
 * Answers the address to connect to, so the caller connects to exactly what was checked (a
 * second resolution could answer differently: DNS rebinding). `allowPrivate` skips the check.
 */
export async function resolveTarget(hostname: string, options: { allowPrivate: boolean }): Promise<ResolvedTarget> {
  const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  let addresses: { address: string; family: number }[];
  const literal = isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "error";
      throw new UnsafeUrlError(`Could not resolve ${host} (${code})`, "unresolvable");
    }
    if (addresses.length === 0) throw new UnsafeUrlError(`Could not resolve ${host}`, "unresolvable");
  }
  if (!options.allowPrivate) {
    const bad = addresses.find((a) => classifyAddress(a.address) !== "public");
    if (bad) {
      const shown = bad.address === host ? host : `${host} resolves to ${bad.address}`;
      throw new UnsafeUrlError(`Refused: ${shown}, a ${classifyAddress(bad.address)} address`);
    }
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
