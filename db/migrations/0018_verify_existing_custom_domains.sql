-- Domains set before verification existed were already served: they stay served (VERIFIED), each
-- with a fresh record value in case it is ever verified again. Their uniqueness held before
-- (the old unique index), so the partial one accepts them all.
UPDATE "organizations"
SET "custom_domain_status" = 'VERIFIED',
    "custom_domain_token" = 'goodfund-verification=' || replace(gen_random_uuid()::text, '-', ''),
    "custom_domain_verified_at" = now()
WHERE "custom_domain" IS NOT NULL AND "custom_domain_status" IS NULL;
