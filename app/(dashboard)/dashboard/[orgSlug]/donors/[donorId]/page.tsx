import type { Metadata } from "next";
import Link from "next/link";
import { formatMoney } from "@/lib/money";
import { DonationStatusBadge, GiftKindMarker } from "@/components/dashboard/ops/badges";
import { DonorDataActions } from "@/components/dashboard/ops/donor-data-actions";
import { donorName } from "@/components/dashboard/ops/labels";
import styles from "@/components/dashboard/ops/ops.module.css";
import { PlansTable } from "@/components/dashboard/ops/plans-table";
import { PageHeader, Stat } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { DonorEditor } from "@/components/dashboard/ops/donor-editor";
import { DonorMerge } from "@/components/dashboard/ops/donor-merge";
import { DonorNotes } from "@/components/dashboard/ops/donor-notes";
import { listDonationsOfDonor } from "@/db/queries/donations";
import { listDonorNotes } from "@/db/queries/donor-notes";
import { listPossibleDuplicates } from "@/db/queries/donors";
import { countryCodes, countryName } from "@/lib/countries";
import { listRecurringPlansOfDonor } from "@/db/queries/recurring-plans";
import { roleSatisfies } from "@/lib/roles";
import { DONOR_DETAIL_DONATIONS } from "@/lib/schemas/donors";
import { serializeRecurringPlan } from "@/lib/schemas/recurring-plans";
import { OpsTable } from "@/components/dashboard/ops/ops-table";
import { loadDonor } from "../../records";
import { TableHead, num } from "@/components/ui/table";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string; donorId: string }> };

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { donor } = await loadDonor(props);
  return { title: donorName(donor) };
}

// GET /dashboard/:orgSlug/donors/:id: a donor's totals, their donations and recurring plans.
export default async function DonorPage(props: Props) {
  const { org, role, db, donor } = await loadDonor(props);
  const [donations, plans, notes, duplicates] = await Promise.all([
    listDonationsOfDonor(db, donor.id, DONOR_DETAIL_DONATIONS),
    listRecurringPlansOfDonor(db, donor.id),
    listDonorNotes(db, donor.id, { page: 1, limit: 100 }),
    listPossibleDuplicates(db, donor),
  ]);
  const isAdmin = roleSatisfies(role, "ADMIN");
  const countries = countryCodes()
    .map((c) => ({ value: c, label: countryName(c) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const base = `/dashboard/${org.slug}`;
  const name = donorName(donor);

  return (
    <>
      <PageHeader
        eyebrow={<Link href={`${base}/donors`}>Donors</Link>}
        title={name}
        description={
          donor.erasedAt ? (
            <>
              Personal data erased on <LocalTime iso={donor.erasedAt.toISOString()} dateOnly />. Their donations are kept without it.
            </>
          ) : donor.email ? (
            <a href={`mailto:${donor.email}`}>{donor.email}</a>
          ) : (
            "No email on file: this donor gets no receipts or emails until one is added."
          )
        }
        actions={
          <>
            {donor.erasedAt || !donor.email ? null : (
              <Link className="button secondary" href={`${base}/donations?q=${encodeURIComponent(donor.email)}`}>
                Find in donations
              </Link>
            )}
            {isAdmin ? (
              <DonorDataActions
                orgSlug={org.slug}
                donorId={donor.id}
                label={name}
                erased={donor.erasedAt !== null}
                openPlans={plans.filter((p) => p.plan.status !== "CANCELED").length}
              />
            ) : null}
          </>
        }
      />
      <div className="stats">
        <Stat label="Total given" value={formatMoney(donor.totalGivenCents, org.currency, { short: true })} hint="Succeeded donations" />
        <Stat label="Gifts" value={donor.donationCount.toLocaleString("en-US")} />
        <Stat
          label="First gift"
          value={donor.firstDonationAt ? <LocalTime iso={donor.firstDonationAt.toISOString()} dateOnly /> : "None yet"}
        />
        <Stat
          label="Last gift"
          value={donor.lastDonationAt ? <LocalTime iso={donor.lastDonationAt.toISOString()} dateOnly /> : "None yet"}
        />
      </div>
      <div className="stack">
        {donor.erasedAt ? null : (
          <section aria-labelledby="donor-details-title" className={styles.section}>
            <div className={styles.sectionTitle}>
              <h2 id="donor-details-title">Details</h2>
              {donor.tags.length > 0 ? (
                <span className="small muted">
                  Tags:{" "}
                  {donor.tags.map((t, i) => (
                    <span key={t}>
                      {i > 0 ? ", " : null}
                      <Link href={`${base}/donors?tag=${encodeURIComponent(t)}`}>{t}</Link>
                    </span>
                  ))}
                </span>
              ) : null}
            </div>
            <DonorEditor
              donorId={donor.id}
              canEdit={isAdmin}
              countries={countries}
              initial={{
                firstName: donor.firstName ?? "",
                lastName: donor.lastName ?? "",
                email: donor.email ?? "",
                phone: donor.phone ?? "",
                line1: donor.address?.line1 ?? "",
                line2: donor.address?.line2 ?? "",
                city: donor.address?.city ?? "",
                region: donor.address?.region ?? "",
                postalCode: donor.address?.postalCode ?? "",
                country: donor.address?.country ?? "",
                tags: donor.tags.join(", "),
                emailOptIn: donor.emailOptIn,
              }}
            />
          </section>
        )}
        {isAdmin && !donor.erasedAt ? (
          <section aria-labelledby="duplicates-title" className={styles.section}>
            <div className={styles.sectionTitle}>
              <h2 id="duplicates-title">Possible duplicates</h2>
              <span className="small muted">Donors with the same name and another email</span>
            </div>
            <DonorMerge
              donorId={donor.id}
              name={name}
              candidates={duplicates.map((d) => ({
                id: d.id,
                label: donorName(d),
                email: d.email,
                total: formatMoney(d.totalGivenCents, org.currency, { short: true }),
                gifts: d.donationCount,
              }))}
            />
          </section>
        ) : null}
        <section aria-labelledby="notes-title" className={styles.section}>
          <div className={styles.sectionTitle}>
            <h2 id="notes-title">Notes</h2>
          </div>
          <DonorNotes
            donorId={donor.id}
            notes={notes.rows.map(({ note, author }) => ({
              id: note.id,
              body: note.body,
              author: author ? (author.name ?? author.email) : "API key",
              createdAt: note.createdAt.toISOString(),
            }))}
          />
        </section>
        <section aria-labelledby="history-title" className={styles.section}>
          <div className={styles.sectionTitle}>
            <h2 id="history-title">Donation history</h2>
            {donations.length >= DONOR_DETAIL_DONATIONS ? (
              <span className="small muted">The newest {DONOR_DETAIL_DONATIONS}; the donations page has them all.</span>
            ) : null}
          </div>
          {donations.length === 0 ? (
            <EmptyState title="No donations" icon="∅">
              This donor has no donations on record.
            </EmptyState>
          ) : (
            <OpsTable label="Donation history">
              <caption className="sr-only">Donations of {name}, newest first, any status</caption>
              <TableHead columns={["Date", num("Amount"), "Status", "Campaign", "Type"]} />
              <tbody>
                {donations.map(({ donation: d, campaignTitle }) => (
                  <tr key={d.id}>
                    <td className="title-cell nowrap">
                      <Link href={`${base}/donations/${encodeURIComponent(d.id)}`}>
                        <LocalTime iso={d.createdAt.toISOString()} />
                        <span className="sr-only"> ({formatMoney(d.amount, d.currency, { short: true })} donation)</span>
                      </Link>
                    </td>
                    <td className="num">{formatMoney(d.amount, d.currency, { short: true })}</td>
                    <td>
                      <DonationStatusBadge status={d.status} />
                    </td>
                    <td style={{ minWidth: 140 }}>
                      <Link href={`${base}/campaigns/${encodeURIComponent(d.campaignId)}`}>{campaignTitle}</Link>
                    </td>
                    <td className="nowrap">
                      <GiftKindMarker recurringInterval={d.recurringInterval} isRenewal={d.isRenewal} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </OpsTable>
          )}
        </section>
        <section aria-labelledby="plans-title" className={styles.section}>
          <div className={styles.sectionTitle}>
            <h2 id="plans-title">Recurring plans</h2>
          </div>
          {plans.length === 0 ? (
            <p className="muted" style={{ margin: 0 }}>
              No recurring plans. A plan starts when a donor chooses to give weekly, monthly, quarterly or yearly.
            </p>
          ) : (
            <PlansTable
              rows={plans.map(serializeRecurringPlan)}
              orgSlug={org.slug}
              canCancel={roleSatisfies(role, "ADMIN")}
              showDonor={false}
              label={`Recurring plans of ${name}`}
            />
          )}
        </section>
      </div>
    </>
  );
}
