import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DataRequests } from "@/components/account/data-requests";
import { Gifts } from "@/components/account/gifts";
import { Plans } from "@/components/account/plans";
import { SignInRequest } from "@/components/account/sign-in-request";
import { SignOutButton } from "@/components/account/sign-out-button";
import { Statements } from "@/components/account/statements";
import styles from "@/components/account/account.module.css";
import { getDb } from "@/db";
import { listDonorDonations, listDonorGiftYears } from "@/db/queries/donor-account";
import { listRecurringPlansOfDonor } from "@/db/queries/recurring-plans";
import { serializeDonorDonation, serializeDonorRecurringPlan } from "@/lib/schemas/donor-account";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { orgBasePath } from "../site";
import { loadAccountOrg, signedInDonor } from "./data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }> };

/** How many gifts the page lists (newest first); the donor API pages through all of them. */
const GIFTS_SHOWN = 100;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const org = await loadAccountOrg((await params).orgSlug);
  return { title: { absolute: org ? `Your account · ${org.name}` : "Your account" } };
}

/**
 * GET /o/:orgSlug/account (and `/account` on the organization's custom domain): the donor's
 * account. Signed out: the form that emails a sign-in link. Signed in (the organization's donor
 * cookie): their gifts with receipts, recurring gifts, year-end statements and their data.
 */
export default async function AccountPage({ params }: Props) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  const donor = await signedInDonor(org);
  const base = await orgBasePath(org.slug);

  if (!donor) {
    return (
      <main id="main" className={styles.main} tabIndex={-1}>
        <div>
          <h1 className={styles.title}>Your donor account</h1>
          <p className={styles.lead}>
            See your gifts to {org.name} and their receipts, download year-end statements, and change or cancel a recurring gift. We&apos;ll
            email you a link to sign in: no password needed.
          </p>
        </div>
        <section className={styles.card} aria-labelledby="sign-in-title">
          <h2 id="sign-in-title">Sign in with your email</h2>
          <SignInRequest orgSlug={org.slug} orgName={org.name} />
        </section>
        <p className={styles.muted}>
          Haven&apos;t given yet? <Link href={base || "/"}>See {org.name}&apos;s campaigns</Link>
        </p>
      </main>
    );
  }

  const db = await getDb();
  const [gifts, plans, years] = await Promise.all([
    listDonorDonations(db, org.id, donor.id, { page: 1, limit: GIFTS_SHOWN }),
    listRecurringPlansOfDonor(db, donor.id),
    listDonorGiftYears(db, org.id, donor.id),
  ]);
  const baseUrl = donateBaseUrl(org);
  const name = donor.firstName?.trim();
  return (
    <main id="main" className={styles.main} tabIndex={-1}>
      <div className={styles.header}>
        <div>
          <h1 className={styles.title}>{name ? `Welcome back, ${name}` : "Your donor account"}</h1>
          <p className={styles.lead}>
            Signed in as <strong>{donor.email}</strong>. Thank you for supporting {org.name}.
          </p>
        </div>
        <SignOutButton orgSlug={org.slug} />
      </div>
      <Gifts gifts={gifts.rows.map((r) => serializeDonorDonation(r, baseUrl))} total={gifts.total} />
      <Plans orgSlug={org.slug} plans={plans.map(serializeDonorRecurringPlan)} />
      <Statements orgSlug={org.slug} years={years} />
      <DataRequests org={org} donor={donor} />
    </main>
  );
}
