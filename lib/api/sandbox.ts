import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { donations, organizations } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { notFound } from "./errors";

/** Sandbox routes exist only without a Stripe key: with one, they answer 404 like any unknown route. */
export function assertSandboxMode(): void {
  if (getEnv().paymentsMode !== "sandbox") throw notFound();
}

export const sandboxConfirmBody = z
  .object({
    clientSecret: z.string().min(1).max(200),
    cardNumber: z.string().min(1).max(40),
  })
  .meta({ id: "SandboxConfirm" });

/** Scope of a sandbox subscription: the organization of its first donation. */
export async function sandboxSubscriptionScope({ db, params }: { db: Db; params: { id: string } }) {
  assertSandboxMode();
  const [d] = await db
    .select({ orgId: donations.orgId })
    .from(donations)
    .where(and(eq(donations.subscriptionId, params.id), eq(donations.isRenewal, false)))
    .limit(1);
  if (!d) throw notFound("Subscription not found");
  return { orgId: d.orgId, subscriptionId: params.id };
}

/** Scope of a sandbox connected account: the organization it belongs to. */
export async function sandboxAccountScope({ db, params }: { db: Db; params: { id: string } }) {
  assertSandboxMode();
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.processorAccountId, params.id))
    .limit(1);
  if (!org) throw notFound("Account not found");
  return { orgId: org.id, accountId: params.id };
}
