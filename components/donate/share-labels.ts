import type { translator } from "@/lib/i18n/translate";

/** The share buttons' words in the page's language (the donate namespace's `share` messages). */
export type ShareLabels = {
  copy: string;
  email: string;
  x: string;
  facebook: string;
  opensInNewTab: string;
  copied: string;
  /** "Copy this link: …", the link included. */
  copyThis: string;
};

/** The share buttons' labels for `url`, worded by the page's translator (server pages pass them down). */
export function shareLabels(t: ReturnType<typeof translator<"donate">>, url: string): ShareLabels {
  return {
    copy: t("share.copy"),
    email: t("share.email"),
    x: t("share.x"),
    facebook: t("share.facebook"),
    opensInNewTab: t("site.opensInNewTab"),
    copied: t("share.copied"),
    copyThis: t("share.copyThis", { url }),
  };
}
