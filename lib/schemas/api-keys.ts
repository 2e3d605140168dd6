import { z } from "zod";
import type { ApiKeyRow } from "@/db/queries/api-keys";
import { iso, isoDateTime, plainText } from "./common";

/** The roles a key can have: OWNER (members, payouts, deletion) stays with people. */
export const API_KEY_ROLES = ["ADMIN", "MEMBER"] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

export const createApiKeyBody = z
  .object({
    name: plainText(100, 1).meta({ description: "What the key is for, to recognise it in lists (`CRM sync`)." }),
    role: z.enum(API_KEY_ROLES).meta({
      description: "What the key may do in the organization: `MEMBER` reads, `ADMIN` also writes. Never above your own role.",
    }),
    expiresAt: isoDateTime
      .nullish()
      .transform((v) => (v ? new Date(v) : null))
      .meta({ description: "When the key stops working (in the future); absent or null: it works until revoked." }),
  })
  .meta({ id: "CreateApiKey" });

export type CreateApiKeyInput = z.output<typeof createApiKeyBody>;

export const apiKeyParams = z.object({ idOrSlug: z.string().min(1).max(100), id: z.string().min(1).max(100) });

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(API_KEY_ROLES),
    prefix: z
      .string()
      .meta({ description: "The key's first characters (`gf_live_Ab12Cd`), to tell keys apart; the rest is never shown again." }),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    lastUsedAt: z.string().nullable().meta({ description: "Last authenticated request, to the minute." }),
    createdBy: z
      .object({ id: z.string(), email: z.string(), name: z.string().nullable() })
      .nullable()
      .meta({ description: "The person who created it; null once that user no longer exists." }),
  })
  .meta({ id: "ApiKey" });

export const apiKeyWithSecretSchema = apiKeySchema
  .extend({
    key: z.string().meta({
      description: "The key itself (`gf_live_…` with Stripe payments, `gf_test_…` in sandbox mode). Shown only here: store it now.",
    }),
  })
  .meta({ id: "ApiKeyWithSecret" });

export type ApiKeyView = z.output<typeof apiKeySchema>;

export function serializeApiKey(k: ApiKeyRow): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    role: k.role as ApiKeyRole,
    prefix: k.prefix,
    createdAt: iso(k.createdAt)!,
    expiresAt: iso(k.expiresAt),
    lastUsedAt: iso(k.lastUsedAt),
    createdBy: k.creator,
  };
}

/** The new key with its secret in clear (only a hash is stored: this is the one time it exists outside the caller). */
export const serializeApiKeyWithSecret = (k: ApiKeyRow, key: string) => ({ ...serializeApiKey(k), key });
