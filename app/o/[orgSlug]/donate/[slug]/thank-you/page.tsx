import { ThankYouView, thankYouMetadata, type ThankYouProps } from "./thank-you-view";

export const dynamic = "force-dynamic";

export const generateMetadata = thankYouMetadata;

/** GET /o/:orgSlug/donate/:slug/thank-you?donation=:id: where a donor lands after paying (public). */
export default async function ThankYouPage(props: ThankYouProps) {
  // Awaited here rather than rendered as an element, so the page's answer is plain markup.
  return ThankYouView(props);
}
