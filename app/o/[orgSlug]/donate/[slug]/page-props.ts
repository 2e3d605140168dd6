import type { GetServerSidePropsContext, GetServerSidePropsResult } from "next";
import { getRequestUser } from "@/lib/auth/server";
import { isSandboxMode } from "@/lib/auth/modes";
import { getEnv } from "@/lib/env";
import { CUSTOM_DOMAIN_HEADER } from "@/lib/hosted-urls/routes";
import { withLang } from "@/lib/i18n/href";
import { DEFAULT_LOCALE, LANG_PARAM_HEADER, LOCALE_HEADER, intlTag, isLocale, type Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";
import { LOAD_HEADER } from "@/lib/overload";
import { brandStyle } from "@/components/donate/brand";
import { initialValues, withQuery } from "@/components/donate/donate-schema";
import {
  captchaConfig,
  closureOf,
  donateFormCampaign,
  findCampaignRow,
  loadParent,
  loadSupporterCount,
  palette,
  paymentConfig,
  viewOf,
} from "./campaign-data";
import type { DonatePageModel, DonatePageProps } from "./donate-page";
import { answerPost, newAttempt, readForm } from "./post-gift";

const DESCRIPTION_MAX = 200;

function summarize(text: string | null): string | null {
  const flat = text?.replace(/\s+/g, " ").trim();
  if (!flat) return null;
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).replace(/\s+\S*$/, "")}…`;
}

/**
 * GET and POST /o/:orgSlug/donate/:slug (pages/o/[orgSlug]/donate/[slug].tsx): the donate page's
 * data, from the request proxy.ts prepared (its language, custom domain and nonce headers) and
 * the signed-in member who may preview a draft. A post of the form is answered here: the form
 * again with its problems, or a redirect (303) to the card step.
 */
export async function getDonatePageProps(ctx: GetServerSidePropsContext): Promise<GetServerSidePropsResult<DonatePageProps>> {
  const { req, res } = ctx;
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === "string" ? value : null;
  };
  const orgSlug = String(ctx.params?.orgSlug ?? "");
  const slug = String(ctx.params?.slug ?? "");
  const locale: Locale = isLocale(header(LOCALE_HEADER)) ? (header(LOCALE_HEADER) as Locale) : DEFAULT_LOCALE;
  const langParam = isLocale(header(LANG_PARAM_HEADER)) ? (header(LANG_PARAM_HEADER) as Locale) : null;
  const customDomain = header(CUSTOM_DOMAIN_HEADER) === "1";
  const base = customDomain ? "" : `/o/${orgSlug}`;
  const doc = { locale, langParam, sandbox: isSandboxMode(), orgHome: customDomain ? "/" : `/o/${encodeURIComponent(orgSlug)}` };
  const posted = req.method === "POST";
  // The figures must be current, but the back/forward cache may keep the page (the script then
  // refreshes them); the answer to a post is never kept.
  res.setHeader("Cache-Control", posted ? "no-store" : "private, no-cache");

  const row = await findCampaignRow(orgSlug, slug, () => getRequestUser(req, res));
  if (!row) {
    if (posted) await readForm(req);
    res.statusCode = 404;
    return { props: { notFound: doc } };
  }
  const { campaign, org, view, light } = await viewOf(row, header(LOAD_HEADER) === "shed");
  const c = view.campaign;
  const t = translator(locale, "donate");
  const payment = paymentConfig();
  const now = Date.now();
  const closure = closureOf({ campaign, org }, payment, now);
  const captcha = closure ? null : captchaConfig(header("x-nonce"));
  const formCampaign = donateFormCampaign(c, org);
  const url = new URL(req.url ?? "/", getEnv().appUrl);

  let form: DonatePageModel["form"] = { attempt: newAttempt(), fresh: true };
  if (posted) {
    const body = await readForm(req);
    if (closure) {
      // The campaign closed while the donor filled the form: the page says why instead.
    } else if (!body) {
      form = {
        ...form,
        answer: {
          values: withQuery(initialValues(formCampaign), url.searchParams, formCampaign, intlTag(locale)),
          problems: {},
          formError: t("submitError.generic"),
          offer: null,
        },
      };
      res.statusCode = 400;
    } else {
      const outcome = await answerPost(body, {
        campaign: formCampaign,
        locale,
        captcha: Boolean(captcha),
        req,
        payPath: (id) => withLang(`${base}/donate/${c.slug}/pay?donation=${encodeURIComponent(id)}`, langParam),
      });
      if ("redirect" in outcome) return { redirect: { destination: outcome.redirect, statusCode: 303 } };
      form = { answer: outcome.render, attempt: outcome.attempt, fresh: false };
    }
  } else if (url.searchParams.has("amount") || url.searchParams.has("frequency")) {
    form = {
      ...form,
      answer: {
        values: withQuery(initialValues(formCampaign), url.searchParams, formCampaign, intlTag(locale)),
        problems: {},
        formError: null,
        offer: null,
      },
    };
  }

  const parentRow = c.parentCampaignId ? await loadParent(c.parentCampaignId) : null;
  const parent =
    parentRow && parentRow.campaign.id !== c.id
      ? { title: parentRow.campaign.title, href: withLang(`/o/${parentRow.org.slug}/donate/${parentRow.campaign.slug}`, langParam) }
      : null;
  const brand = palette({ campaign, org });
  const cover = campaign.coverImageUrl;
  const page: DonatePageModel = {
    ...doc,
    org: { slug: org.slug, name: org.name, legalName: org.legalName, taxId: org.taxId, logoUrl: org.logoUrl, currency: org.currency },
    brand: brandStyle(brand),
    path: `${base}/donate/${slug}`,
    search: url.search,
    view,
    closure,
    now,
    // How many people have given, beside the totals: an aggregate, so only when those are public
    // (and not under overload, where the page leaves out its costly sections).
    supporters: view.progress && !light ? await loadSupporterCount(c.id) : 0,
    parent,
    formCampaign,
    payment,
    captcha,
    // A peer-to-peer parent taking supporters' pages offers "Start a fundraiser" and "Join a team".
    takesPages: c.type === "PEER_TO_PEER" && !c.parentCampaignId && c.allowSupporterPages && c.status === "ACTIVE" && !light,
    thankYouPath: `/o/${org.slug}/donate/${c.slug}/thank-you`,
    meta: {
      title: `${campaign.title} · ${org.name}`,
      description: summarize(campaign.description) ?? t("meta.campaignDescription", { org: org.name, campaign: campaign.title }),
      canonical: c.donateUrl,
      // A root-relative cover (the demo's /covers/...) made absolute for Open Graph.
      image: cover ? { url: new URL(cover, getEnv().appUrl).href, alt: t("hero.coverAlt", { campaign: campaign.title }) } : null,
      themeColor: brand.brand,
      noindex: row.preview,
    },
    form,
    nonce: header("x-nonce"),
  };
  return { props: { page } };
}
