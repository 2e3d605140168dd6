-- One organization a custom domain. Where several claimed one (possible before this index, and
-- then served by none of them), the organization that set it first keeps it; the others' domain
-- is cleared, which changes nothing they serve today.
UPDATE "organizations" o SET "custom_domain" = NULL, "updated_at" = now()
WHERE o."custom_domain" IS NOT NULL
  AND EXISTS (
    SELECT 1 FROM "organizations" f
    WHERE f."custom_domain" = o."custom_domain"
      AND (f."created_at", f."id") < (o."created_at", o."id")
  );--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_custom_domain_key" ON "organizations" USING btree ("custom_domain");
