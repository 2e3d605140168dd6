import { describe, expect, it } from "vitest";
import { sessionStateOf } from "@/lib/auth/sessions";
import { describeDevice, describeNetwork } from "@/lib/services/sessions/describe-session";

describe("describeDevice: browser and system from a User-Agent, nothing finer", () => {
  it.each([
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      "Chrome on macOS",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0", "Firefox on Windows"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    ["curl/8.5.0", "curl"],
    ["node", "API client"],
    ["", "Unknown device"],
  ])("%s → %s", (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });
});

describe("describeNetwork: a coarse place, derived offline, never the full address", () => {
  it.each([
    ["203.0.113.57", "203.0.113.0/24"],
    ["127.0.0.1", "This computer"],
    ["10.1.2.3", "Private network 10.1.2.0/24"],
    ["192.168.0.12", "Private network 192.168.0.0/24"],
    ["2001:db8:1:2::/64", "2001:db8:1::/48"],
    ["fd00:1:2:3::/64", "Private network fd00:1:2::/48"],
    ["0:0:0:0::/64", "This computer"],
    ["unknown", "Unknown network"],
  ])("%s → %s", (ip, expected) => {
    expect(describeNetwork(ip)).toBe(expected);
  });
});

describe("sessionStateOf: the session claims of a token", () => {
  it("reads sid and twoFactorAt, and treats malformed ones as absent", () => {
    expect(sessionStateOf({ sub: "u", sid: "ses_1", twoFactorAt: 1700000000 })).toEqual({ sid: "ses_1", twoFactorAt: 1700000000 });
    expect(sessionStateOf({ sub: "u" })).toEqual({ sid: null, twoFactorAt: null });
    expect(sessionStateOf({ sub: "u", sid: 42, twoFactorAt: "yesterday" })).toEqual({ sid: null, twoFactorAt: null });
    expect(sessionStateOf(null)).toEqual({ sid: null, twoFactorAt: null });
  });
});
