import { z } from "zod";
import { plainText } from "./common";

export const optionalText = (max: number) =>
  plainText(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** The one postal address of the API (lib/schemas/address.ts), as receipts print it. */
export { addressInput as postalAddressInput, addressSchema as postalAddressSchema } from "./address";

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
