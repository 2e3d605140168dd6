import { afterAll, expect } from "vitest";
import { resetEnv } from "@/lib/env";
import { clearHostCache } from "@/lib/hosted-urls/custom-domains";
import { post } from "./api";
import { startDnsServer, type DnsServer } from "./dns-server";

let dns: Promise<DnsServer> | undefined;

/**
 * This test file's DNS server (tests/helpers/dns-server.ts), started on first use and named by
 * DNS_RESOLVERS, so custom-domain verification asks it; stopped after the file's tests.
 */
export function testDns(): Promise<DnsServer> {
  dns ??= (async () => {
    const server = await startDnsServer();
    process.env.DNS_RESOLVERS = server.address;
    resetEnv();
    return server;
  })();
  return dns;
}

afterAll(async () => {
  if (!dns) return;
  const server = await dns;
  dns = undefined;
  await server.close();
});

type WithDomain = { id: string; customDomainVerification?: { name: string; value: string } | null };

/**
 * Verifies an organization's PENDING custom domain the way its admin does: the TXT record it
 * asks for published on the test DNS server, then `POST …/custom-domain/verify`. Answers the
 * organization as the API returns it (VERIFIED).
 */
export async function verifyCustomDomain(org: WithDomain, token: string): Promise<Record<string, any>> {
  const server = await testDns();
  const record = org.customDomainVerification ?? null;
  expect(record, "the organization has no custom domain to verify").not.toBeNull();
  server.setTxt(record!.name, [record!.value]);
  const res = await post(`/api/orgs/${org.id}/custom-domain/verify`, undefined, { token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.customDomainStatus).toBe("VERIFIED");
  clearHostCache();
  return res.body;
}
