import { z } from "zod";
import { isCountryCode } from "@/lib/countries";
import { plainText } from "./common";

/** Optional plain text: blank (or absent) is null. */
export const optionalText = (max: number) =>
  plainText(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** A postal address as clients send it: HTML stripped, blanks of optional lines become null. */
export const addressInput = z
  .object({
    line1: plainText(200, 1),
    line2: optionalText(200),
    city: plainText(100, 1),
    region: optionalText(100).meta({ description: "State, province or county." }),
    postalCode: optionalText(20),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .refine(isCountryCode, "Must be an ISO 3166-1 alpha-2 country code")
      .meta({ description: "ISO 3166-1 alpha-2 code, e.g. `US`, `CA`, `GB` (case-insensitive on input)." }),
  })
  .meta({ id: "PostalAddressInput" });

export const addressSchema = z
  .object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    region: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string(),
  })
  .meta({ id: "PostalAddress" });

/** Digits with the usual separators, an optional leading `+` and an optional extension. */
const PHONE = /^\+?[0-9][0-9 ().\-/]{2,29}(\s*(x|ext\.?)\s*[0-9]{1,6})?$/i;

/** A phone number, or null (a blank one is null). */
export const phoneInput = plainText(40)
  .nullable()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || PHONE.test(v), "Must be a phone number: digits, spaces, ( ) . - / and an optional leading +");

/** A UK taxpayer's Gift Aid declaration on the donate form (UK receipt profile only): the home address HMRC needs. */
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
