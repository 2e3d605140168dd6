import type { Metadata } from "next";
import type { ReactNode } from "react";
import { notFound, redirect } from "next/navigation";
import { SignInRequest } from "@/components/account/sign-in-request";
import styles from "@/components/account/account.module.css";
import { getDb } from "@/db";
import { withLang } from "@/lib/i18n/href";
import { getLangParam, getTranslations } from "@/lib/i18n/request";
import { isDonorSignInLinkUsable } from "@/lib/services/donor-accounts/consume-sign-in-link";
import { orgBasePath } from "../../site";
import { loadAccountOrg, signedInDonor } from "../data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const org = await loadAccountOrg((await params).orgSlug);
  const t = await getTranslations("account");
  return { title: { absolute: org ? t("meta.signInTitle", { orgName: org.name }) : t("meta.signInTitleBare") } };
}

/**
 * GET /o/:orgSlug/account/sign-in?token=…: where the emailed link lands, in the request's
 * language. Opening it changes nothing (mail scanners open links too): the donor presses
 * "Continue to your account", a form post to ./sign-in/confirm that uses the link. A used,
 * expired or unknown link says so and offers a new one, unless the donor is signed in already (a
 * second click of Continue, say): then on to the account page. `?lang=` is carried on throughout.
 */
export default async function DonorSignInPage({ params, searchParams }: Props) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const usable = token !== "" && (await isDonorSignInLinkUsable(await getDb(), org, token));
  const [t, langParam] = await Promise.all([getTranslations("account"), getLangParam()]);

  if (!usable && (await signedInDonor(org))) redirect(withLang(`${await orgBasePath(org.slug)}/account`, langParam));

  if (usable) {
    return (
      <SignInCard id="continue-title" title={t("signInPage.continueTitle")} lead={t("signInPage.continueLead", { orgName: org.name })}>
        {/* Relative to this page, so it posts to the host the link was opened on (the cookie's host). */}
        <form method="post" action={withLang("sign-in/confirm", langParam)} className={styles.form}>
          <input type="hidden" name="token" value={token} />
          <button className={styles.submit} type="submit">
            {t("signInPage.continue")}
          </button>
        </form>
        <p className={styles.muted}>{t("signInPage.linkLifetime")}</p>
      </SignInCard>
    );
  }

  return (
    <SignInCard id="expired-title" title={t("signInPage.expiredTitle")} lead={t("signInPage.expiredLead", { orgName: org.name })}>
      <SignInRequest orgSlug={org.slug} orgName={org.name} again />
    </SignInCard>
  );
}

/** The page's one card, titled by its heading: what the link does now, then how to go on. */
function SignInCard({ id, title, lead, children }: { id: string; title: string; lead: string; children: ReactNode }) {
  return (
    <main id="main" className={styles.main} tabIndex={-1}>
      <section className={styles.card} aria-labelledby={id}>
        <h1 id={id} className={styles.title}>
          {title}
        </h1>
        <p>{lead}</p>
        {children}
      </section>
    </main>
  );
}
