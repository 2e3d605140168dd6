import type { Actor } from "@/lib/actor";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { unauthorized } from "./errors";

/** The audit context of a staff request: its actor (a person or an API key), request ID and client IP. */
export function auditContextOf(ctx: { actor: Actor | null; requestId: string; clientIp: string }): AuditContext {
  // Staff routes authenticate first, so an actor is always there; a public call never reaches a staff change.
  if (!ctx.actor) throw unauthorized();
  return { actor: ctx.actor, requestId: ctx.requestId, clientIp: ctx.clientIp };
}
