import { getTranslations } from "@/lib/i18n/request";
import { OrgBarView } from "./org-bar-view";

/**
 * The organization's bar at the top of its public pages: its logo, or its initials in a circle
 * of the brand colour, and its name (the page's one mark of who is asking); on donate pages, the
 * "Secure donation" note.
 */
export async function OrgBar({ org, secure = true }: { org: { name: string; logoUrl: string | null }; secure?: boolean }) {
  return <OrgBarView org={org} t={secure ? await getTranslations("donate") : null} />;
}
