import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { SignInRequest } from "@/components/account/sign-in-request";
import styles from "@/components/account/account.module.css";
import { getDb } from "@/db";
import { isDonorSignInLinkUsable } from "@/lib/services/donor-accounts/consume-sign-in-link";
import { orgBasePath } from "../../site";
import { loadAccountOrg, signedInDonor } from "../data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const org = await loadAccountOrg((await params).orgSlug);
  return { title: { absolute: org ? `Sign in · ${org.name}` : "Sign in" } };
}

/**
 * GET /o/:orgSlug/account/sign-in?token=…: where the emailed link lands. Opening it changes
 * nothing (mail scanners open links too): the donor presses "Continue to your account", a form
 * post to ./sign-in/confirm that uses the link. A used, expired or unknown link says so and
 * offers a new one, unless the donor is signed in already (a second click of Continue, say): then
 * on to the account page.
 */
export default async function DonorSignInPage({ params, searchParams }: Props) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  const sp = await searchParams;
  const token = typeof sp.token === "string" ? sp.token : "";
  const usable = token !== "" && (await isDonorSignInLinkUsable(await getDb(), org, token));

  if (!usable && (await signedInDonor(org))) redirect(`${await orgBasePath(org.slug)}/account`);

  if (usable) {
    return (
      <main id="main" className={styles.main} tabIndex={-1}>
        <section className={styles.card} aria-labelledby="continue-title">
          <h1 id="continue-title" className={styles.title}>
            Sign in to your account
          </h1>
          <p>Continue to see your gifts to {org.name}, your receipts and statements, and your recurring gifts.</p>
          {/* Relative to this page, so it posts to the host the link was opened on (the cookie's host). */}
          <form method="post" action="sign-in/confirm" className={styles.form}>
            <input type="hidden" name="token" value={token} />
            <button className={styles.submit} type="submit">
              Continue to your account
            </button>
          </form>
          <p className={styles.muted}>This link works once, and for 15 minutes after it was sent.</p>
        </section>
      </main>
    );
  }

  return (
    <main id="main" className={styles.main} tabIndex={-1}>
      <section className={styles.card} aria-labelledby="expired-title">
        <h1 id="expired-title" className={styles.title}>
          This sign-in link has expired or was already used
        </h1>
        <p>
          Sign-in links work once, for 15 minutes. Enter your email address and we&apos;ll send you a new one to see your gifts to{" "}
          {org.name}.
        </p>
        <SignInRequest orgSlug={org.slug} orgName={org.name} submitLabel="Email me a new sign-in link" />
      </section>
    </main>
  );
}
