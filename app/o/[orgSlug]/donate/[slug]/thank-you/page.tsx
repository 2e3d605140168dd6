import type { Metadata } from "next";
import { getTranslations } from "@/lib/i18n/request";
import { loadCampaign } from "../data";
import { ThankYouView, type ThankYouProps } from "./thank-you-view";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: ThankYouProps): Promise<Metadata> {
  const { orgSlug, slug } = await params;
  const row = await loadCampaign(orgSlug, slug);
  const t = await getTranslations("donate");
  return {
    title: { absolute: row ? t("meta.thankYouTitle", { campaign: row.campaign.title }) : t("meta.thankYou") },
    robots: { index: false, follow: false },
  };
}

/** GET /o/:orgSlug/donate/:slug/thank-you?donation=:id: where a donor lands after paying (public). */
export default async function ThankYouPage(props: ThankYouProps) {
  // Awaited here rather than rendered as an element, so the page's answer is plain markup.
  return ThankYouView(props);
}
