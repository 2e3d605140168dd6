import { isIP } from "node:net";

/**
 * "Chrome on macOS" from a User-Agent: the browser family and the operating system, nothing
 * finer (versions change weekly and say nothing to a person reading their sessions).
 */
export function describeDevice(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  if (!ua.trim()) return "Unknown device";
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\/|FxiOS\//.test(ua)
        ? "Firefox"
        : /Chrome\/|CriOS\/|Chromium\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : /^curl\//.test(ua)
              ? "curl"
              : /node|undici|axios|python|Go-http-client|okhttp/i.test(ua)
                ? "API client"
                : null;
  const os = /iPhone|iPad|iPod/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /CrOS/.test(ua)
            ? "ChromeOS"
            : /Linux|X11/.test(ua)
              ? "Linux"
              : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? (os ? `A browser on ${os}` : "Unknown device");
}

/**
 * A coarse place for a client address, derived offline (no geolocation service is called): the
 * IPv4 /24 or IPv6 /48 it belongs to, "This computer" for loopback, or a private network.
 * `clientIp` is what `clientIpOf` answers (IPv4, an IPv6 /64, or "unknown").
 */
export function describeNetwork(clientIp: string): string {
  const ip = clientIp.replace(/\/64$/, "");
  if (isIP(ip) === 4) {
    const [a, b, c] = ip.split(".").map(Number);
    const prefix = `${a}.${b}.${c}.0/24`;
    if (a === 127) return "This computer";
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return `Private network ${prefix}`;
    return prefix;
  }
  const v6 = ip.replace(/::$/, "");
  if (isIP(`${v6}::`) === 6) {
    const groups = v6.split(":").filter(Boolean);
    if (groups.every((g) => /^0+$/.test(g))) return "This computer";
    const prefix = `${groups.slice(0, 3).join(":")}::/48`;
    return /^f[cd]/i.test(groups[0]) ? `Private network ${prefix}` : prefix;
  }
  return "Unknown network";
}
