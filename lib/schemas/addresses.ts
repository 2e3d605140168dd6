import { z } from "zod";
import { plainText } from "./common";

/** A country as ISO 3166-1 alpha-2, upper-cased. */
const country = z
  .string()
  .trim()
  .regex(/^[a-zA-Z]{2}$/, "Must be a two-letter ISO 3166-1 country code")
  .transform((s) => s.toUpperCase());

export const optionalText = (max: number) =>
  plainText(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const postalAddressInput = z
  .object({
    line1: plainText(200, 1),
    line2: optionalText(200),
    city: plainText(100, 1),
    region: optionalText(100),
    postalCode: optionalText(20),
    country,
  })
  .meta({ id: "PostalAddressInput" });

export const postalAddressSchema = z
  .object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    region: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string(),
  })
  .meta({ id: "PostalAddress" });

/** A UK taxpayer's Gift Aid declaration on the donate form (UK receipt profile only). */
export const giftAidInput = z
  .object({
    title: optionalText(20),
    firstName: plainText(100, 1),
    lastName: plainText(100, 1),
    houseNameOrNumber: plainText(100, 1).meta({ description: "House name or number of the donor's home address" }),
    postcode: plainText(12, 2).transform((s) => s.toUpperCase()),
    confirmed: z.literal(true, { error: "Confirm the Gift Aid declaration" }),
  })
  .meta({ id: "GiftAidDeclarationInput" });
