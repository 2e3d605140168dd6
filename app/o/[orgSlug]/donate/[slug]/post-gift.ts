import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { NextRequest } from "next/server";
import { POST as createDonationRoute } from "@/app/api/donations/route";
import { CLIENT_IP_HEADER, CLIENT_IP_PROOF_HEADER } from "@/lib/api/client-ip";
import { IDEMPOTENCY_HEADER } from "@/lib/api/idempotency";
import { getEnv } from "@/lib/env";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";
import { currencyDecimals, formatMoney } from "@/lib/money";
import { monthlyUpsellCents, offersMonthlyUpsell } from "@/lib/monthly-upsell";
import {
  amountCentsOf,
  amountValueOf,
  campaignLimits,
  donateFormSchema,
  donationRequestBody,
  initialValues,
  usesTierPicker,
  type DonateFormValues,
  type Frequency,
  type TicketOrderValue,
} from "@/components/donate/donate-schema";
import { donateProblems } from "@/components/donate/donate-problems";
import type { FieldProblems } from "@/components/donate/form-values";
import { donateWording } from "@/components/donate/issue-words";
import { IN_PROGRESS } from "@/components/donate/post-donation";
import { fieldVisible, placeServerErrors } from "@/components/donate/server-problems";
import { createFailureText } from "@/components/donate/submit-errors";
import type { ApiErrorBody, DonateFormCampaign } from "@/components/donate/types";
import type { DonateFormAnswer } from "@/components/donate/use-donate-form";

/**
 * The donate page's form, posted to the page itself: the page runs no React in the browser (it
 * loads no framework, see pages/o/[orgSlug]/donate/[slug].tsx), so the server checks the gift
 * with the form's own rules, asks for the monthly upsell, and creates the donation through
 * POST /api/donations's own handler (its rate limits, captcha, idempotency and answers), then
 * sends the donor on to the card step, or renders the form again with what to correct.
 */

/** What a form post leads to: the form again, with the server's answer, or the card step. */
export type PostOutcome = { render: DonateFormAnswer; attempt: string } | { redirect: string };

/** The largest form the page reads: a gift with every field at its limit is well under it. */
const FORM_MAX_BYTES = 64 * 1024;

/** A new attempt: what the form's posts share until the server refuses one (see idempotencyKeyOf). */
export const newAttempt = () => randomBytes(16).toString("hex");
const isAttempt = (s: string | null): s is string => s !== null && /^[0-9a-f]{32}$/.test(s);

/**
 * The Idempotency-Key of a post: the same for the same gift within one attempt (a double click, a
 * resend after a lost answer, the same gift sent again after coming back with Back), so the
 * server answers the donation it already created; a different gift (anything in the body but the
 * captcha's token, which is new each time) is a new key. The embed's React form keeps the same
 * rule in the browser (components/donate/payment-attempt.ts).
 */
export function idempotencyKeyOf(attempt: string, body: Record<string, unknown>): string {
  const { captchaToken: _token, ...gift } = body;
  return `donate_${createHash("sha256")
    .update(`${attempt}\n${JSON.stringify(gift)}`)
    .digest("hex")
    .slice(0, 32)}`;
}

/** The form's body, or null when it is not a form or is larger than any gift's. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Read to the end either way, so the connection stays usable; keep nothing past the limit.
    if (size <= FORM_MAX_BYTES) chunks.push(chunk);
  }
  if (type !== "application/x-www-form-urlencoded" || size > FORM_MAX_BYTES) return null;
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

const oneOf = <T extends string>(value: string | null, options: readonly T[]): T | null =>
  value !== null && (options as readonly string[]).includes(value) ? (value as T) : null;

/**
 * The form's values as posted, over the campaign's starting ones: names are the values' paths
 * ("address.city"), checkboxes are there when ticked, an event's tiers post
 * `ticketOrder.{tier}.quantity` and each seat's `ticketOrder.{tier}.{i}.name` and `.email`.
 * Text is cut at a generous length: the rules then say what is too long.
 */
export function valuesFromForm(form: URLSearchParams, c: DonateFormCampaign): DonateFormValues {
  const start = initialValues(c);
  const text = (key: string) => (form.get(key) ?? "").slice(0, 5000);
  const ticked = (key: string) => form.get(key) === "on";
  const custom = text("amount.custom");
  const chosen = form.get("amount");
  // Typing an amount of one's own is choosing it (the page's script unticks the buttons).
  const amount =
    custom.trim() !== "" || chosen === null || !c.suggestedAmounts.includes(Number(chosen))
      ? { choice: "custom", custom }
      : { choice: chosen, custom: "" };
  const ticketOrder: TicketOrderValue[] = usesTierPicker(c)
    ? c.ticketTiers.map((tier) => {
        const quantity = Math.min(999, Number(/^\d{1,3}$/.exec(form.get(`ticketOrder.${tier.id}.quantity`) ?? "")?.[0] ?? 0));
        const attendees = Array.from({ length: Math.min(quantity, 100) }, (_, i) => ({
          name: text(`ticketOrder.${tier.id}.${i}.name`),
          email: text(`ticketOrder.${tier.id}.${i}.email`),
        }));
        return { tierId: tier.id, quantity, attendees };
      })
    : [];
  return {
    amount,
    tickets: usesTierPicker(c) ? String(ticketOrder.reduce((n, l) => n + l.quantity, 0)) : text("tickets"),
    ticketOrder,
    extraGift: text("extraGift"),
    recurringInterval: oneOf<Frequency>(form.get("recurringInterval"), campaignLimits(c).frequencies) ?? start.recurringInterval,
    firstName: text("firstName"),
    lastName: text("lastName"),
    email: text("email"),
    anonymous: ticked("anonymous"),
    message: text("message"),
    dedicate: ticked("dedicate"),
    dedication: {
      type: oneOf(form.get("dedication.type"), ["IN_HONOR", "IN_MEMORY"] as const) ?? "IN_HONOR",
      honoreeName: text("dedication.honoreeName"),
      notifyEmail: text("dedication.notifyEmail"),
      message: text("dedication.message"),
    },
    coverFees: ticked("coverFees"),
    remindIfUnfinished: ticked("remindIfUnfinished"),
    emailOptIn: ticked("emailOptIn"),
    address: {
      line1: text("address.line1"),
      line2: text("address.line2"),
      city: text("address.city"),
      region: text("address.region"),
      postalCode: text("address.postalCode"),
      country: text("address.country"),
    },
    claimGiftAid: ticked("claimGiftAid"),
    giftAid: { title: text("giftAid.title"), houseNameOrNumber: text("giftAid.houseNameOrNumber"), postcode: text("giftAid.postcode") },
    upsell: oneOf(form.get("upsell"), ["ACCEPTED", "DECLINED"] as const),
    captchaToken: text("captchaToken") || null,
  };
}

export type PostContext = {
  campaign: DonateFormCampaign;
  locale: Locale;
  captcha: boolean;
  /** The request the form came with: its client address (and proof) goes on to the API. */
  req: IncomingMessage;
  /** The card step's path for a donation (`…/pay?donation=`), the client secret goes after it as the fragment. */
  payPath: (donationId: string) => string;
};

/** Answers a post of the donate form. */
export async function answerPost(form: URLSearchParams, ctx: PostContext): Promise<PostOutcome> {
  const { campaign: c, locale, captcha } = ctx;
  const tag = intlTag(locale);
  const t = translator(locale, "donate");
  const money = (cents: number, short = false) => formatMoney(cents, c.currency, { short, locale: tag });
  const wording = donateWording(
    (key, values) => t(`errors.${key}`, values),
    (cents) => money(cents, cents >= 100_000),
    tag,
  );
  const attempt = isAttempt(form.get("attempt")) ? form.get("attempt")! : newAttempt();
  let values = valuesFromForm(form, c);
  const answer = (over: Partial<DonateFormAnswer>, next = attempt): PostOutcome => ({
    render: { values, problems: {}, formError: null, offer: null, ...over },
    attempt: next,
  });

  const problems: FieldProblems = donateProblems(
    (v: DonateFormValues) => donateFormSchema(c, v, { captcha, captchaUnavailable: false, locale: tag }),
    wording,
  )(values);
  if (Object.keys(problems).length > 0) return answer({ problems });

  // The monthly upsell: offered once, after a valid one-time choice, before the gift is created.
  const amountCents = amountCentsOf(values, c, tag);
  const monthly =
    offersMonthlyUpsell(c) && values.recurringInterval === "ONCE" && amountCents !== null
      ? monthlyUpsellCents(amountCents, c.suggestedAmounts, campaignLimits(c).minCents, 10 ** currencyDecimals(c.currency))
      : null;
  if (monthly !== null && values.upsell === null) return answer({ offer: monthly });
  if (monthly !== null && values.upsell === "ACCEPTED") {
    values = { ...values, amount: amountValueOf(monthly, c, tag), recurringInterval: "MONTH" };
  }

  const body = donationRequestBody(values, c, captcha, locale);
  const res = await createDonationRoute(apiRequest(ctx.req, body, idempotencyKeyOf(attempt, body)), {
    params: Promise.resolve({}),
  });
  const json = (await res.json().catch(() => ({}))) as ApiErrorBody & { id?: string; clientSecret?: string };
  if (res.status === 201 && json.id && json.clientSecret) {
    return { redirect: `${ctx.payPath(json.id)}#${encodeURIComponent(json.clientSecret)}` };
  }
  // A refusal settles the attempt (the server keeps it under its key): the next try is a new one.
  const settled = res.status < 500 && !(res.status === 409 && json.error === IN_PROGRESS);
  const next = settled ? newAttempt() : attempt;
  if (res.status === 400 && json.details) {
    const placed = placeServerErrors(json.details, wording, (key) => fieldVisible(key, c, values, captcha), t("submitError.checkForm"));
    const serverProblems = Object.fromEntries(Object.entries(placed.placed).map(([key, message]) => [key, { type: "server", message }]));
    return answer({ problems: serverProblems, formError: placed.formError }, next);
  }
  return answer({ formError: createFailureText({ status: res.status, retryAfter: res.headers.get("Retry-After") }, json, t) }, next);
}

/** POST /api/donations as the page's own request made it: the donor's address (with the server's proof of it) and browser. */
function apiRequest(req: IncomingMessage, body: Record<string, unknown>, key: string): NextRequest {
  const headers = new Headers({ "content-type": "application/json", [IDEMPOTENCY_HEADER]: key });
  for (const name of [CLIENT_IP_HEADER, CLIENT_IP_PROOF_HEADER, "user-agent", "accept-language"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new NextRequest(new URL("/api/donations", getEnv().appUrl), { method: "POST", headers, body: JSON.stringify(body) });
}
