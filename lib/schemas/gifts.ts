import { z } from "zod";
import { email, isoDateTime, plainText } from "./common";
import { addressInput, optionalText } from "./address";
import { OFFLINE_METHODS } from "./donations";

/** A day (`2031-03-04`, taken as midnight UTC) or an ISO 8601 date-time; never more than a day ahead. */
const receivedAt = z
  .union([z.iso.date({ message: "Must be an ISO 8601 date or date-time" }), isoDateTime], {
    error: "Must be an ISO 8601 date or date-time",
  })
  .transform((s) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s))
  .refine((d) => d.getUTCFullYear() >= 1900, "Must be in 1900 or later")
  .refine((d) => d.getTime() <= Date.now() + 86_400_000, "Must not be in the future")
  .meta({ description: "When the gift was received: a date (`2031-03-04`, midnight UTC) or an ISO 8601 date-time." });

const amount = z.number().int().min(1).max(100_000_000);
const advantageCents = z.number().int().min(0).max(100_000_000);
const reference = optionalText(100).meta({ description: "Cheque number, transfer reference, DAF grant ID…" });

const donorById = z.object({ id: z.string().min(1).max(100) }).strict();
const donorByFields = z
  .object({
    email: email.nullish().transform((v) => v ?? null),
    firstName: plainText(100, 1),
    lastName: plainText(100, 1),
    address: addressInput.nullish().transform((v) => v ?? null),
    phone: optionalText(40),
  })
  .strict();

export const offlineGiftBody = z
  .object({
    campaignId: z.string().min(1).max(100),
    amount: amount.meta({ description: "The gift in the organization's currency, in its minor unit (cents)." }),
    currency: z
      .string()
      .regex(/^[a-zA-Z]{3}$/, "Must be a three-letter ISO currency code")
      .transform((s) => s.toLowerCase())
      .optional(),
    receivedAt,
    method: z.enum(OFFLINE_METHODS),
    reference,
    donor: z.union([donorById, donorByFields], { error: "Give either an existing donor's `id`, or `firstName` and `lastName`" }).meta({
      description:
        "An existing donor (`{ id }`), or the donor's details: matched by email (case-insensitive) within the organization, or created. " +
        "Without an email, a new donor (with a null `email`) is created for each gift.",
    }),
    advantageCents: advantageCents.optional().meta({ description: "Fair market value of what the donor received in return." }),
    note: optionalText(1000).meta({ description: "Staff note kept on the gift's timeline." }),
    sendReceipt: z.boolean().optional().meta({ description: "Queue the receipt email (when the donor has an email)." }),
  })
  .refine((v) => (v.advantageCents ?? 0) <= v.amount, { message: "Must not exceed the amount", path: ["advantageCents"] })
  .meta({ id: "OfflineGift" });

export type OfflineGiftInput = z.output<typeof offlineGiftBody>;

export const correctGiftBody = z
  .object({
    amount: amount.optional(),
    receivedAt: receivedAt.optional(),
    campaignId: z.string().min(1).max(100).optional(),
    method: z.enum(OFFLINE_METHODS).optional(),
    reference: plainText(100)
      .nullable()
      .optional()
      .transform((v) => (v === undefined ? undefined : v || null)),
    advantageCents: advantageCents.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Give at least one field to correct" })
  .meta({ id: "CorrectGift" });

export type CorrectGiftInput = z.output<typeof correctGiftBody>;

export const voidGiftBody = z.object({ reason: plainText(500, 1) }).meta({ id: "VoidGift" });
