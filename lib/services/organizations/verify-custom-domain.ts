import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { isCustomDomainTaken } from "@/db/errors";
import { organizations, type Organization } from "@/db/schema";
import { dropAllCampaignViews } from "@/lib/cache/public-campaign-view";
import { lookupTxt } from "@/lib/dns/txt-records";
import { conflict } from "@/lib/errors";
import { clearHostCache } from "@/lib/hosted-urls/custom-domains";
import { verificationRecordName } from "@/lib/schemas/organizations";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { customDomainTaken } from "./update-organization";

/** Found values quoted in a mismatch message: enough to spot a typo, never a wall of text. */
const QUOTED_VALUES = 3;
const QUOTED_LENGTH = 80;

const notVerified = (message: string) => conflict("domain_not_verified", message);

/**
 * Verifies the organization's PENDING custom domain: its `_goodfund.{domain}` TXT record must hold
 * the organization's value (one of the records, if there are several). Then the domain is
 * VERIFIED, served (host routing) and used in `donateBaseUrl`, with an
 * `organization.custom_domain_verified` audit entry in the same transaction. Otherwise 409
 * `domain_not_verified`, saying what is wrong: no such record, a record with another value, or a
 * DNS failure. Only one organization can have a domain VERIFIED: a second one that proves
 * control too is refused (409 `custom_domain_taken`). A VERIFIED domain answers as it is, with
 * no lookup. The DNS lookup runs outside any transaction; the update then checks the domain and
 * value are still the ones looked up (a concurrent change of domain makes it a 409; a concurrent
 * verification of the same one answers its result).
 */
export async function verifyCustomDomain(db: Db, org: Organization, audit: AuditContext): Promise<Organization> {
  const domain = org.customDomain;
  if (!domain || !org.customDomainToken) throw notVerified("This organization has no custom domain to verify");
  if (org.customDomainStatus === "VERIFIED") return org;

  const name = verificationRecordName(domain);
  const found = await lookupTxt(name);
  if (found.status === "error") throw notVerified(`The DNS lookup of ${name} failed (${found.code}); try again in a few minutes`);
  if (found.status === "none") {
    throw notVerified(`No TXT record found at ${name}: add the record shown, then verify again (DNS changes can take a while to appear)`);
  }
  if (!found.records.includes(org.customDomainToken)) {
    const quoted = found.records
      .slice(0, QUOTED_VALUES)
      .map((v) => JSON.stringify(v.length > QUOTED_LENGTH ? `${v.slice(0, QUOTED_LENGTH)}…` : v))
      .join(", ");
    throw notVerified(`The TXT record at ${name} does not hold the expected value (found ${quoted})`);
  }

  try {
    const verified = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(organizations)
        .set({ customDomainStatus: "VERIFIED", customDomainVerifiedAt: sql`now()`, updatedAt: sql`now()` })
        .where(
          and(
            eq(organizations.id, org.id),
            eq(organizations.customDomain, domain),
            eq(organizations.customDomainToken, org.customDomainToken!),
            eq(organizations.customDomainStatus, "PENDING"),
          ),
        )
        .returning();
      if (!row) {
        // A concurrent verification of the same domain got there first: the same answer, one audit entry.
        const [current] = await tx.select().from(organizations).where(eq(organizations.id, org.id));
        if (current?.customDomain === domain && current.customDomainStatus === "VERIFIED") return current;
        throw notVerified("The custom domain changed while it was being verified; verify again");
      }
      await recordAudit(tx, audit, {
        orgId: org.id,
        action: "organization.custom_domain_verified",
        target: { type: "organization", id: org.id },
        data: { customDomain: domain },
      });
      return row;
    });
    // This process serves the domain at once; other processes within their host cache's lifetime.
    clearHostCache();
    dropAllCampaignViews();
    return verified;
  } catch (err) {
    if (isCustomDomainTaken(err)) throw customDomainTaken();
    throw err;
  }
}
