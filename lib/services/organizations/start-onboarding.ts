import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db";
import { organizations, type Organization } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * Connects the organization's payout account: creates the connected account once (kept even if
 * onboarding is abandoned, so a retry resumes it) and returns a fresh onboarding link. The
 * organization turns ACTIVE when the processor's `account.updated` says charges and payouts work.
 * The audit entry is written once the link is in hand; a processor failure records nothing.
 */
export async function startOnboarding(
  db: Db,
  processor: PaymentProcessor,
  org: Organization,
  audit: AuditContext,
): Promise<{ processorAccountId: string; url: string }> {
  try {
    const result = await connect(db, processor, org);
    await recordAudit(db, audit, {
      orgId: org.id,
      action: "payouts.onboarding_started",
      target: { type: "organization", id: org.id },
      data: { processorAccountId: result.processorAccountId },
    });
    return result;
  } catch (err) {
    // The processor is down or refused: a bad gateway (the account, if made, is kept), never a 500.
    if (!(err instanceof ProcessorError)) throw err;
    log.warn("onboarding failed at the processor", { orgId: org.id, ...errorFields(err) });
    throw processorUnavailable();
  }
}

async function connect(db: Db, processor: PaymentProcessor, org: Organization): Promise<{ processorAccountId: string; url: string }> {
  let accountId = org.processorAccountId;
  if (!accountId) {
    const created = await processor.createConnectedAccount({
      orgId: org.id,
      email: org.notificationEmail,
      name: org.legalName ?? org.name,
    });
    const [claimed] = await db
      .update(organizations)
      .set({ processorAccountId: created.accountId })
      .where(and(eq(organizations.id, org.id), isNull(organizations.processorAccountId)))
      .returning({ id: organizations.processorAccountId });
    if (claimed) accountId = created.accountId;
    else {
      // A concurrent request connected one first: use that one.
      const [current] = await db.select({ id: organizations.processorAccountId }).from(organizations).where(eq(organizations.id, org.id));
      accountId = current.id!;
    }
  }
  const dashboard = `${getEnv().appUrl}/dashboard/${org.slug}/settings/payouts`;
  const { url } = await processor.createOnboardingLink({
    accountId,
    orgId: org.id,
    returnUrl: `${dashboard}?onboarding=done`,
    refreshUrl: `${dashboard}?onboarding=refresh`,
  });
  return { processorAccountId: accountId, url };
}
