import type { Metadata } from "next";
import { getTranslations } from "@/lib/i18n/request";
import { EmbedBridge } from "@/components/donate/embed-bridge";
import { loadCampaign } from "../../data";
import { ThankYouView, type ThankYouProps } from "../../thank-you/thank-you-view";

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

/** GET /o/:orgSlug/donate/:slug/embed/thank-you?donation=:id: the thank-you page inside the embeddable form's frame (public). */
export default function EmbedThankYouPage(props: ThankYouProps) {
  return (
    <>
      <EmbedBridge />
      <ThankYouView {...props} embed />
    </>
  );
}
