import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "@/db";
import { reminderOptOuts } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { notFound } from "@/lib/errors";

const PURPOSE = "unfinished-gift-reminders";

const macOf = (payload: string) => createHmac("sha256", getEnv().secretsKey).update(`${PURPOSE}:${payload}`).digest("base64url");

/** The unsubscribe token of an address on an organization's reminders: the pair, and a MAC of it under the server's key (nothing stored). */
export function unsubscribeToken(orgId: string, email: string): string {
  const payload = Buffer.from(`${orgId}\n${email.toLowerCase()}`, "utf8").toString("base64url");
  return `${payload}.${macOf(payload)}`;
}

/** The organization and address a token was issued for, or null when the server did not issue it (compared in constant time). */
export function readUnsubscribeToken(token: string): { orgId: string; email: string } | null {
  const [payload, mac, extra] = token.split(".");
  if (!payload || !mac || extra !== undefined) return null;
  const given = Buffer.from(mac, "utf8");
  const expected = Buffer.from(macOf(payload), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [orgId, email] = Buffer.from(payload, "base64url").toString("utf8").split("\n");
  return orgId && email ? { orgId, email } : null;
}

/** The address gets no more unfinished-gift reminders from the organization (again: no change). A token not ours is a 404. */
export async function optOutOfReminders(db: Db, token: string): Promise<{ unsubscribed: true }> {
  const who = readUnsubscribeToken(token);
  if (!who) throw notFound("unsubscribe_link_not_found", "This unsubscribe link is not valid");
  await db.insert(reminderOptOuts).values({ orgId: who.orgId, email: who.email }).onConflictDoNothing();
  return { unsubscribed: true };
}
