import type { Metadata } from "next";
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
      <main id="main" className={styles.main} tabIndex={-1}>
        <section className={styles.card} aria-labelledby="continue-title">
          <h1 id="continue-title" className={styles.title}>
            {t("signInPage.continueTitle")}
          </h1>
          <p>{t("signInPage.continueLead", { orgName: org.name })}</p>
          {/* Relative to this page, so it posts to the host the link was opened on (the cookie's host). */}
          <form method="post" action={withLang("sign-in/confirm", langParam)} className={styles.form}>
            <input type="hidden" name="token" value={token} />
            <button className={styles.submit} type="submit">
              {t("signInPage.continue")}
            </button>
          </form>
          <p className={styles.muted}>{t("signInPage.linkLifetime")}</p>
        </section>
      </main>
    );
  }

  return (
    <main id="main" className={styles.main} tabIndex={-1}>
      <section className={styles.card} aria-labelledby="expired-title">
        <h1 id="expired-title" className={styles.title}>
          {t("signInPage.expiredTitle")}
        </h1>
        <p>{t("signInPage.expiredLead", { orgName: org.name })}</p>
        <SignInRequest orgSlug={org.slug} orgName={org.name} again />
      </section>
    </main>
  );
}
