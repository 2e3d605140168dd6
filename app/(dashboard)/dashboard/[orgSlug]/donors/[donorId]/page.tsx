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
import { listDonationsOfDonor } from "@/db/queries/donations";
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
  const [donations, plans] = await Promise.all([
    listDonationsOfDonor(db, donor.id, DONOR_DETAIL_DONATIONS),
    listRecurringPlansOfDonor(db, donor.id),
  ]);
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
          ) : (
            <a href={`mailto:${donor.email}`}>{donor.email}</a>
          )
        }
        actions={
          <>
            {donor.erasedAt ? null : (
              <Link className="button secondary" href={`${base}/donations?q=${encodeURIComponent(donor.email)}`}>
                Find in donations
              </Link>
            )}
            {roleSatisfies(role, "ADMIN") ? (
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
