import dns from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Where an outbound webhook may connect: global unicast addresses only (unless
 * ALLOW_PRIVATE_WEBHOOK_URLS=1). Anything else would let an organization's admin make the server
 * call into its own network (cloud metadata at 169.254.169.254, databases on 10/8, a NAT64 or
 * 6to4 gateway that reaches them, …). The ranges are the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries, plus multicast and reserved space; for IPv6, everything outside 2000::/3
 * is refused too. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address
 * it reaches.
 */
type Range = { cidr: string; name: string; list: BlockList };

function range(family: "ipv4" | "ipv6", cidr: string, name: string): Range {
  const [prefix, bits] = cidr.split("/");
  const list = new BlockList();
  list.addSubnet(prefix, Number(bits), family);
  return { cidr, name, list };
}

function ranges(family: "ipv4" | "ipv6", table: [cidr: string, name: string][]): Range[] {
  return table.map(([cidr, name]) => range(family, cidr, name));
}

const V4_SPECIAL = ranges("ipv4", [
  ["0.0.0.0/8", "this network"],
  ["10.0.0.0/8", "private use"],
  ["100.64.0.0/10", "shared address space"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private use"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation (TEST-NET-1)"],
  ["192.31.196.0/24", "AS112-v4"],
  ["192.52.193.0/24", "AMT"],
  ["192.88.99.0/24", "deprecated 6to4 relay anycast"],
  ["192.168.0.0/16", "private use"],
  ["192.175.48.0/24", "direct delegation AS112 service"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation (TEST-NET-2)"],
  ["203.0.113.0/24", "documentation (TEST-NET-3)"],
  ["224.0.0.0/4", "multicast"],
  ["255.255.255.255/32", "limited broadcast"],
  ["240.0.0.0/4", "reserved"],
]);

const V6_SPECIAL = ranges("ipv6", [
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["64:ff9b::/96", "IPv4-IPv6 translation"],
  ["64:ff9b:1::/48", "local-use IPv4-IPv6 translation"],
  ["100::/64", "discard-only"],
  // 2001::/23 holds Teredo (2001::/32), benchmarking (2001:2::/48), ORCHID and others.
  ["2001::/23", "IETF protocol assignments"],
  ["2001:db8::/32", "documentation"],
  ["2002::/16", "6to4"],
  ["3fff::/20", "documentation"],
  ["5f00::/16", "segment routing (SRv6) SIDs"],
  ["fc00::/7", "unique local"],
  ["fe80::/10", "link-local"],
  ["ff00::/8", "multicast"],
]);

const V6_GLOBAL_UNICAST = range("ipv6", "2000::/3", "global unicast");

/**
 * `ip` in a form BlockList can judge: brackets and zone ID dropped, IPv6 in canonical form, an
 * IPv4-mapped IPv6 address as its IPv4 address. Null when it is not an IP address.
 */
function normalize(ip: string): { address: string; family: "ipv4" | "ipv6" } | null {
  let bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const zone = bare.indexOf("%");
  if (zone >= 0) bare = bare.slice(0, zone);
  const family = isIP(bare);
  if (family === 4) return { address: bare, family: "ipv4" };
  if (family !== 6) return null;
  // The URL parser writes IPv6 canonically (lower case, zeros compressed, a dotted quad as hex),
  // so a mapped address has one spelling whatever the input's.
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: "ipv4" };
  }
  return { address: canonical, family: "ipv6" };
}

/**
 * The special-purpose range `ip` falls in (e.g. `"127.0.0.0/8 (loopback)"`), or null for a
 * global unicast address. Not an IP address: `"invalid address"`.
 */
export function specialPurposeRange(ip: string): string | null {
  const n = normalize(ip);
  if (!n) return "invalid address";
  const found = (n.family === "ipv4" ? V4_SPECIAL : V6_SPECIAL).find((r) => r.list.check(n.address, n.family));
  if (found) return `${found.cidr} (${found.name})`;
  if (n.family === "ipv6" && !V6_GLOBAL_UNICAST.list.check(n.address, "ipv6")) return "outside 2000::/3 (not global unicast)";
  return null;
}

/** Whether a webhook may connect to `ip` (IPv4, IPv6, IPv4-mapped IPv6; brackets and zone IDs allowed). */
export const isGlobalUnicast = (ip: string) => specialPurposeRange(ip) === null;

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

/** The refusal, worded so it never says which address a name resolved to (that would map the internal network). */
export const NOT_PUBLIC = "the URL must resolve to a public internet address";

export type ResolvedTarget = { address: string; family: 4 | 6 };

/**
 * Resolves `hostname` (as `URL.hostname` gives it) and checks every address it has: one
 * non-global address among global ones is enough to refuse, since the connection could land on
 * either. Answers the address to connect to, so the caller connects to exactly what was checked
 * (a second resolution could answer differently: DNS rebinding). `allowPrivate` skips the check.
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
  if (!options.allowPrivate && !addresses.every((a) => isGlobalUnicast(a.address))) {
    throw new UnsafeUrlError(`Refused: ${NOT_PUBLIC}`);
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
