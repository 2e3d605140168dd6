import type { Metadata } from "next";
import { notFound } from "next/navigation";
import styles from "@/components/account/account.module.css";
import { getDb } from "@/db";
import { withLang } from "@/lib/i18n/href";
import { getLangParam, getTranslations } from "@/lib/i18n/request";
import { isFundraiserLinkUsable } from "@/lib/services/fundraisers/start-fundraiser";
import { loadAccountOrg } from "../data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account");
  return { title: { absolute: t("fundraiserConfirm.continueTitle") } };
}

/**
 * GET /o/:orgSlug/account/fundraiser?token=…: where a supporter's emailed confirmation link
 * lands. Opening it changes nothing (mail scanners open links too): "Create my page" is a form
 * post to ./fundraiser/confirm, which uses the link, creates the page and signs them in.
 */
export default async function FundraiserConfirmPage({ params, searchParams }: Props) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const closed = sp.closed === "1";
  const usable = !closed && token !== "" && (await isFundraiserLinkUsable(await getDb(), org, token));
  const [t, langParam] = await Promise.all([getTranslations("account"), getLangParam()]);
  const id = usable ? "continue-title" : "expired-title";
  return (
    <main id="main" className={styles.main} tabIndex={-1}>
      <section className={styles.card} aria-labelledby={id}>
        <h1 id={id} className={styles.title}>
          {usable ? t("fundraiserConfirm.continueTitle") : t("fundraiserConfirm.expiredTitle")}
        </h1>
        {usable ? (
          <>
            <p>{t("fundraiserConfirm.continueLead", { orgName: org.name })}</p>
            <form method="post" action={withLang("fundraiser/confirm", langParam)} className={styles.form}>
              <input type="hidden" name="token" value={token} />
              <button className={styles.submit} type="submit">
                {t("fundraiserConfirm.continue")}
              </button>
            </form>
            <p className={styles.muted}>{t("fundraiserConfirm.linkLifetime")}</p>
          </>
        ) : (
          <p>{closed ? t("fundraiserConfirm.closed") : t("fundraiserConfirm.expiredLead")}</p>
        )}
      </section>
    </main>
  );
}
