import { getTranslations } from "@/lib/i18n/request";
import { TestModeBannerView } from "./test-mode-banner-view";

/**
 * Shown on every page in sandbox payments mode (root layout), in the page's language: nothing
 * real is charged, so nobody should mistake the install for a live one. A labelled landmark, so
 * screen readers can find it.
 */
export async function TestModeBanner() {
  return <TestModeBannerView t={await getTranslations("common")} />;
}
