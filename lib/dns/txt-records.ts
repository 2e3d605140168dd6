import { Resolver } from "node:dns/promises";
import { getEnv } from "@/lib/env";

/** What a TXT lookup found: the records (each one's strings joined), none at all, or a DNS failure. */
export type TxtLookup = { status: "found"; records: string[] } | { status: "none" } | { status: "error"; code: string };

/** Each try waits this long for an answer; two tries, so a dead resolver costs a verification a few seconds, not a minute. */
const TIMEOUT_MS = 2_500;
const TRIES = 2;

// The answers that mean "no such record" rather than "could not find out".
const NO_RECORD = new Set(["ENOTFOUND", "ENODATA"]);

/**
 * Asks for the TXT records of `name`: the resolvers DNS_RESOLVERS names (`host:port`, so tests can
 * run their own DNS server), else the system's. A record split into several strings (values over
 * 255 bytes) is one record, its strings joined. Never throws for a DNS answer: a missing name or
 * record is `none`, anything else (timeout, SERVFAIL, refused) `error` with its code.
 */
export async function lookupTxt(name: string): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  const servers = getEnv().DNS_RESOLVERS;
  if (servers) resolver.setServers(servers);
  try {
    const records = await resolver.resolveTxt(name);
    return records.length > 0 ? { status: "found", records: records.map((chunks) => chunks.join("")) } : { status: "none" };
  } catch (err) {
    const code = typeof (err as { code?: unknown }).code === "string" ? (err as { code: string }).code : "EUNKNOWN";
    return NO_RECORD.has(code) ? { status: "none" } : { status: "error", code };
  }
}
