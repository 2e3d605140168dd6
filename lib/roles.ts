import type { Role } from "@/db/schema";

const RANK: Record<Role, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };

/** OWNER ⊃ ADMIN ⊃ MEMBER: a role satisfies every requirement at or below it. */
export function roleSatisfies(has: Role, needs: Role): boolean {
  return RANK[has] >= RANK[needs];
}
