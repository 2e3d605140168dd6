import { EmbedBridge } from "@/components/donate/embed-bridge";
import { ThankYouView, thankYouMetadata, type ThankYouProps } from "../../thank-you/thank-you-view";

export const dynamic = "force-dynamic";

export const generateMetadata = thankYouMetadata;

/** GET /o/:orgSlug/donate/:slug/embed/thank-you?donation=:id: the thank-you page inside the embeddable form's frame (public). */
export default function EmbedThankYouPage(props: ThankYouProps) {
  return (
    <>
      <EmbedBridge />
      <ThankYouView {...props} embed />
    </>
  );
}
