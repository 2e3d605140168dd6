import { FIELD_ORDER, asksAddress, campaignLimits, offersGiftAid, type DonateFormValues } from "./donate-schema";
import type { DonateWording } from "./issue-words";
import type { ApiErrorBody, DonateFormCampaign } from "./types";

/** Whether the form shows the field of this error key, so its error can sit next to it. */
export function fieldVisible(
  key: string,
  c: DonateFormCampaign,
  values: Pick<DonateFormValues, "dedicate" | "claimGiftAid">,
  captcha: boolean,
) {
  const isEvent = c.type === "EVENT";
  if (key === "amount") return !isEvent;
  if (key === "tickets") return isEvent;
  if (key === "recurringInterval") return campaignLimits(c).frequencies.length > 0;
  if (key.startsWith("dedication.")) return values.dedicate;
  if (key.startsWith("address.")) return asksAddress(c);
  if (key.startsWith("giftAid.")) return offersGiftAid(c) && values.claimGiftAid;
  if (key === "captchaToken") return captcha;
  return (FIELD_ORDER as readonly string[]).includes(key);
}

/**
 * A 400 from POST /api/donations, placed on the form: each shown field's first problem next to
 * it, worded from its code; the rest in the text above the button (null when every problem has
 * its field). Both donate forms place them so: the page's (on the server) and the embed's.
 */
export function placeServerErrors(
  details: NonNullable<ApiErrorBody["details"]>,
  wording: DonateWording,
  visible: (key: string) => boolean,
  checkForm: string,
): { placed: Record<string, string>; formError: string | null } {
  const texts = wording.fieldTexts(details.fieldErrors ?? {}, details.codes ?? {});
  const unplaced: string[] = [...(details.formErrors ?? [])];
  const placed: Record<string, string> = {};
  for (const [key, text] of Object.entries(texts)) {
    // A missing address is the API's word for the whole of it: shown at its first line; an
    // event's amount is its tickets'.
    const target = key === "amount" && visible("tickets") ? "tickets" : key === "address" ? "address.line1" : key;
    if (visible(target) && !(target in placed)) placed[target] = text;
    else unplaced.push(text);
  }
  const someone = Object.keys(placed).length > 0;
  return { placed, formError: unplaced.length > 0 ? unplaced.join(" ") : someone ? null : checkForm };
}
