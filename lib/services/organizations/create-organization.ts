import { like } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { isCustomDomainTaken, isUniqueViolation } from "@/db/errors";
import { memberships, organizations, type Organization, type User } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { createOrganizationBody } from "@/lib/schemas/organizations";
import { nextFreeSlug, slugify } from "@/lib/slug";
import { assertDomainNotServed, customDomainFields, customDomainTaken } from "./update-organization";

type Input = z.output<typeof createOrganizationBody>;

/**
 * Creates an organization (status ONBOARDING until its payout account is connected) with the
 * creator as OWNER, in one transaction. An explicit slug that is taken is a 409; a slug derived
 * from the name is de-duplicated (`-2`, `-3`…), retrying if a concurrent create takes it first.
 * A custom domain starts PENDING (see updateOrganization): nothing is served on it until verified.
 */
export async function createOrganization(db: Db, user: User, input: Input): Promise<Organization> {
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? (await freeSlugFor(db, input.name));
    try {
      const created = await db.transaction(async (tx) => {
        if (input.customDomain) await assertDomainNotServed(tx, input.customDomain);
        const [org] = await tx
          .insert(organizations)
          .values({
            id: newId("org"),
            name: input.name,
            slug,
            notificationEmail: input.notificationEmail ?? user.email,
            legalName: input.legalName ?? null,
            taxId: input.taxId ?? null,
            logoUrl: input.logoUrl ?? null,
            color: input.color ?? null,
            customDomain: input.customDomain ?? null,
            ...customDomainFields(input.customDomain ?? null),
            defaultLocale: input.defaultLocale ?? "en",
            timeZone: input.timeZone ?? "UTC",
            currency: input.currency ?? "usd",
          })
          .returning();
        await tx.insert(memberships).values({ orgId: org.id, userId: user.id, role: "OWNER" });
        return org;
      });
      return created;
    } catch (err) {
      if (isCustomDomainTaken(err)) throw customDomainTaken();
      if (!isUniqueViolation(err)) throw err;
      if (input.slug || attempt >= 4) throw conflict("organization_slug_taken", "Organization slug is already taken");
    }
  }
}

async function freeSlugFor(db: Db, name: string): Promise<string> {
  let base = slugify(name, 48);
  if (base.length < 3) base = `${base || "org"}-org`.replace(/^-/, "");
  const rows = await db
    .select({ slug: organizations.slug })
    .from(organizations)
    .where(like(organizations.slug, `${base}%`));
  return nextFreeSlug(base, new Set(rows.map((r) => r.slug)), 48);
}
