import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_IP_KEY_ENV, assertClientsCanBeToldApart, socketAddressOf } from "@/lib/api/client-ip";
import { resetEnv } from "@/lib/env";
import { clientIpStamper } from "@/server/client-ip";

/** A request as node:http hands it to the server: a socket address and the headers sent. */
const requestFrom = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers: { ...headers } }) as unknown as IncomingMessage;
const headersOf = (req: IncomingMessage) => new Headers(req.headers as Record<string, string>);

/** process.env, writable (Next.js's types make NODE_ENV read-only). */
const env = process.env as Record<string, string | undefined>;
const saved = { key: process.env[CLIENT_IP_KEY_ENV], trust: process.env.TRUST_PROXY, nodeEnv: process.env.NODE_ENV };
afterEach(() => {
  process.env[CLIENT_IP_KEY_ENV] = saved.key;
  for (const [name, value] of [
    ["TRUST_PROXY", saved.trust],
    ["NODE_ENV", saved.nodeEnv],
  ] as const) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  resetEnv();
});

describe("the server's client-IP stamp (server/client-ip.ts)", () => {
  it("writes the socket address with a proof the app accepts, and overwrites what a client sent", () => {
    const stamp = clientIpStamper(0, () => {});
    const req = requestFrom("203.0.113.7", { "x-goodfund-client-ip": "10.0.0.1", "x-goodfund-client-ip-proof": "forged" });
    stamp(req);
    expect(socketAddressOf(headersOf(req))).toBe("203.0.113.7");
    // Another server process (a new key) does not accept it.
    clientIpStamper(0, () => {});
    expect(socketAddressOf(headersOf(req))).toBeNull();
  });

  it("says once, naming TRUST_PROXY, when a proxy on this host forwards requests it was not told to trust", () => {
    const lines: string[] = [];
    const stamp = clientIpStamper(0, (l) => lines.push(l));
    stamp(requestFrom("203.0.113.7", { "x-forwarded-for": "198.51.100.1" }));
    stamp(requestFrom("127.0.0.1"));
    expect(lines).toEqual([]);
    stamp(requestFrom("127.0.0.1", { "x-forwarded-for": "198.51.100.1" }));
    stamp(requestFrom("::1", { "x-forwarded-for": "198.51.100.2" }));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: "error", msg: expect.stringContaining("TRUST_PROXY") });

    const trusted: string[] = [];
    clientIpStamper(1, (l) => trusted.push(l))(requestFrom("127.0.0.1", { "x-forwarded-for": "198.51.100.1" }));
    expect(trusted).toEqual([]);
  });
});

describe("assertClientsCanBeToldApart", () => {
  it("refuses a production start without our server and without TRUST_PROXY, naming TRUST_PROXY", () => {
    env.NODE_ENV = "production";
    delete process.env[CLIENT_IP_KEY_ENV];
    for (const trust of [undefined, "0", "false"]) {
      if (trust === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = trust;
      resetEnv();
      expect(() => assertClientsCanBeToldApart(), `TRUST_PROXY=${trust}`).toThrow(/TRUST_PROXY/);
    }
  });

  it("allows a trusted proxy, our own server, and any start outside production", () => {
    env.NODE_ENV = "production";
    delete process.env[CLIENT_IP_KEY_ENV];
    process.env.TRUST_PROXY = "1";
    resetEnv();
    expect(() => assertClientsCanBeToldApart()).not.toThrow();
    delete process.env.TRUST_PROXY;
    resetEnv();
    clientIpStamper(0, () => {});
    expect(() => assertClientsCanBeToldApart()).not.toThrow();
    delete process.env[CLIENT_IP_KEY_ENV];
    env.NODE_ENV = "development";
    expect(() => assertClientsCanBeToldApart()).not.toThrow();
  });
});
