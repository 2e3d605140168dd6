import { z } from "zod";
import { isCountryCode } from "@/lib/countries";
import { plainText } from "./common";
import { POSTCODE_MIN, TEXT_LIMITS } from "./donation-limits";

/** Optional plain text: blank (or absent) is null. */
export const optionalText = (max: number) =>
  plainText(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** A postal address as clients send it: HTML stripped, blanks of optional lines become null. */
export const addressInput = z
  .object({
    line1: plainText(TEXT_LIMITS.addressLine, 1),
    line2: optionalText(TEXT_LIMITS.addressLine),
    city: plainText(TEXT_LIMITS.city, 1),
    region: optionalText(TEXT_LIMITS.region).meta({ description: "State, province or county." }),
    postalCode: optionalText(TEXT_LIMITS.postalCode),
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
    title: optionalText(TEXT_LIMITS.giftAidTitle),
    firstName: plainText(TEXT_LIMITS.name, 1),
    lastName: plainText(TEXT_LIMITS.name, 1),
    houseNameOrNumber: plainText(TEXT_LIMITS.houseNameOrNumber, 1).meta({
      description: "House name or number of the donor's home address",
    }),
    postcode: plainText(TEXT_LIMITS.postcode, POSTCODE_MIN).transform((s) => s.toUpperCase()),
    confirmed: z.literal(true, { error: "Confirm the Gift Aid declaration" }),
  })
  .meta({ id: "GiftAidDeclarationInput" });
