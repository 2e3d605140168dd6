import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { prepared, setTo, variants } from "@/db/prepared";
import {
  campaignMilestones,
  campaigns,
  donationEvents,
  donations,
  donors,
  organizations,
  type Campaign,
  type Donation,
  type DonationStatus,
  type Organization,
} from "@/db/schema";
import { campaignViewChanged } from "@/lib/cache/public-campaign-view";
import { enqueueEmails, type QueuedEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { getEnv } from "@/lib/env";
import { isLocale } from "@/lib/i18n/locales";
import { matchFor } from "@/lib/money";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { issueReceiptNumber } from "@/lib/services/receipts/issue-receipt-number";
import { emitDonationEvent } from "@/lib/webhooks-out/emit";
import { addToDailyTotals } from "./daily-totals";
import { isCountedFailure, markPaymentFailed } from "./failed-payments";

const MILESTONES = [25, 50, 75, 100] as const;

/** Counted in raised/count and donor totals. */
const counts = (s: DonationStatus) => s === "SUCCEEDED";
/** Holds its event tickets (released when it fails or is refunded). */
const holdsTickets = (s: DonationStatus) => s === "PENDING" || s === "SUCCEEDED" || s === "DISPUTED";

export type MoveOptions = {
  /** Timeline entry type, e.g. `payment_intent.succeeded`. */
  timelineType: string;
  processorEventId?: string | null;
  data?: Record<string, unknown>;
  failureReason?: string | null;
  disputeReason?: string | null;
  /** Queue receipt, admin and tribute emails if this is the donation's first success. */
  successEmails?: boolean;
  /** What the event says about the payment, written in the same UPDATE of the donation. */
  set?: Pick<Partial<Donation>, "chargeId" | "paymentIntentId">;
};

const ph = sql.placeholder;

// The statements below are built once (db/prepared.ts) and run in the caller's transaction.

const insertTimeline = prepared("donation_timeline", (db) =>
  db
    .insert(donationEvents)
    .values({ donationId: ph("donationId"), type: ph("type"), processorEventId: ph("processorEventId"), data: ph("data") }),
);

/** The columns of MoveOptions.set an event gives, in a fixed order (a statement's shape). */
const setKeys = (set: MoveOptions["set"]): ("chargeId" | "paymentIntentId")[] =>
  set ? (["chargeId", "paymentIntentId"] as const).filter((k) => set[k] !== undefined) : [];

const placeholders = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, setTo(k)]));

/** A donation that keeps its status: what the event says about the payment, and a reason with its time. */
const updateInPlace = variants((shape: string) => {
  const [keys, reason] = shape.split("|");
  return prepared(`donation_update_in_place_${shape}`, (db) =>
    db
      .update(donations)
      .set({
        ...placeholders(keys ? keys.split(",") : []),
        ...(reason ? { failureReason: setTo("failureReason"), updatedAt: sql`now()` } : {}),
      })
      .where(eq(donations.id, ph("id")))
      .returning(),
  );
});

const updateCampaignCounts = prepared("campaign_counts", (db) =>
  db
    .update(campaigns)
    .set({
      raisedAmountCents: sql`${campaigns.raisedAmountCents} + ${ph("raised")}`,
      donationCount: sql`${campaigns.donationCount} + ${ph("count")}`,
      matchedAmountCents: sql`${campaigns.matchedAmountCents} - ${ph("unmatched")}`,
      ticketsSold: sql`${campaigns.ticketsSold} + ${ph("tickets")}`,
    })
    .where(eq(campaigns.id, ph("id")))
    .returning(),
);

const addCampaignMatch = prepared("campaign_match", (db) =>
  db
    .update(campaigns)
    .set({ matchedAmountCents: sql`${campaigns.matchedAmountCents} + ${ph("matched")}` })
    .where(eq(campaigns.id, ph("id")))
    .returning(),
);

const setDonationMatch = prepared("donation_match", (db) =>
  db
    .update(donations)
    .set({ matchedAmountCents: setTo("matched") })
    .where(eq(donations.id, ph("id")))
    .returning(),
);

const updateParentCounts = prepared("parent_campaign_counts", (db) =>
  db
    .update(campaigns)
    .set({
      raisedAmountCents: sql`${campaigns.raisedAmountCents} + ${ph("raised")}`,
      donationCount: sql`${campaigns.donationCount} + ${ph("count")}`,
    })
    .where(eq(campaigns.id, ph("id")))
    .returning(),
);

/**
 * The donation's move: its new status and match, with the event's payment columns. Shape: the
 * payment columns set, whether it succeeds, and whether a failure or dispute reason is given.
 */
const updateMoved = variants((shape: string) => {
  const [keys, succeeded, failure, dispute] = shape.split("|");
  return prepared(`donation_move_${shape}`, (db) =>
    db
      .update(donations)
      .set({
        ...placeholders(keys ? keys.split(",") : []),
        status: setTo("status"),
        matchedAmountCents: setTo("matched"),
        succeededAt: succeeded ? sql`coalesce(${donations.succeededAt}, now())` : donations.succeededAt,
        // A success clears the reason of an earlier failure (the timeline keeps it).
        failureReason: failure ? setTo("failureReason") : succeeded ? null : donations.failureReason,
        disputeReason: dispute ? setTo("disputeReason") : donations.disputeReason,
        updatedAt: sql`now()`,
      })
      .where(eq(donations.id, ph("id")))
      .returning(),
  );
});

const organizationById = prepared("organization_by_id", (db) =>
  db
    .select()
    .from(organizations)
    .where(eq(organizations.id, ph("id"))),
);

/** A campaign's milestones reached, `count` of them (1–4), inserted unless already alerted. */
const insertMilestones = variants((count: number) =>
  prepared(`campaign_milestones_${count}`, (db) =>
    db
      .insert(campaignMilestones)
      .values(Array.from({ length: count }, (_, i) => ({ campaignId: ph("campaignId"), thresholdPct: ph(`pct${i}`) })))
      .onConflictDoNothing()
      .returning({ thresholdPct: campaignMilestones.thresholdPct }),
  ),
);

/**
 * Moves a donation to `to` and keeps every aggregate that depends on its status in step, inside
 * the caller's transaction. The caller must hold the donation's row lock (SELECT … FOR UPDATE),
 * so two events for one donation never interleave.
 *
 * Invariants kept: a campaign's raised/count are the sum/count of its SUCCEEDED donations (a
 * peer-to-peer parent's include its pages'); matched is the sum of the SUCCEEDED donations'
 * matched amounts and never exceeds `matchingMaxCents`; donor totals, and the reports' per-day
 * campaign totals (`campaign_daily_totals`), likewise; `ticketsSold` is the tickets of donations
 * that hold them (PENDING, SUCCEEDED, DISPUTED). All changes are relative SQL updates on locked
 * rows, so concurrent events on other donations compose.
 * Locks are taken donation → campaign → parent campaign → donor, the same order everywhere.
 */
export async function moveDonation(tx: Tx, donation: Donation, to: DonationStatus, opts: MoveOptions): Promise<Donation> {
  const from = donation.status;
  const timeline = () =>
    insertTimeline(tx, {
      donationId: donation.id,
      type: opts.timelineType,
      processorEventId: opts.processorEventId ?? null,
      data: { from, to, ...opts.data },
    });
  const keys = setKeys(opts.set);
  const setValues = { ...opts.set, id: donation.id };
  // Rare (a declined or canceled payment): its own statement, so the common paths keep theirs.
  const failed = isCountedFailure(from, opts.timelineType) ? markPaymentFailed(tx, { id: donation.id }) : undefined;
  if (from === to) {
    // A reason given without a status change (a declined card on a donation that keeps its
    // tickets while its payment stays payable) is written with the time it happened.
    const reason = opts.failureReason !== undefined;
    if (reason || keys.some((k) => donation[k] !== opts.set![k])) {
      const [updated] = await updateInPlace(`${keys.join(",")}|${reason ? "r" : ""}`)(tx, {
        ...setValues,
        failureReason: opts.failureReason,
      });
      donation = updated;
    }
    await Promise.all([timeline(), failed]);
    return donation;
  }

  const gained = !counts(from) && counts(to);
  const lost = counts(from) && !counts(to);
  const ticketDelta = donation.tickets ? (holdsTickets(to) ? 1 : 0) - (holdsTickets(from) ? 1 : 0) : 0;
  const sign = gained ? 1 : lost ? -1 : 0;
  // A gift that starts counting is matched from the campaign's locked row, which its UPDATE
  // answers: the donation's own UPDATE goes out with it saying 0 and is corrected when a match
  // is due (matching on, room under the cap), in the next round trip.
  const matched = gained || lost ? 0 : donation.matchedAmountCents;
  const failure = opts.failureReason !== undefined;
  const dispute = opts.disputeReason !== undefined;
  const shape = `${keys.join(",")}|${to === "SUCCEEDED" ? "s" : ""}|${failure ? "f" : ""}|${dispute ? "d" : ""}`;
  const moveRow = () =>
    updateMoved(shape)(tx, {
      ...setValues,
      status: to,
      matched,
      failureReason: opts.failureReason,
      disputeReason: opts.disputeReason,
    });

  // Statements that don't wait for each other's answers go out together: the driver pipelines
  // statements issued at once on the transaction's connection (one round trip, not one each), and
  // Postgres runs them in the order issued, so the lock order holds. Fewer round trips also mean
  // the campaign's row lock, taken by its UPDATE and held to commit, is held for less time.
  if (sign === 0 && ticketDelta === 0) {
    const [moved] = await moveRow();
    await Promise.all([timeline(), emitDonationEvent(tx, moved), failed]);
    return moved;
  }

  // The UPDATE locks the campaign row (FOR NO KEY UPDATE, like any update that keeps the key):
  // new donations' foreign-key checks (KEY SHARE) on the campaign don't wait for it, so renewals
  // inserted concurrently no longer deadlock against this lock as they did behind a SELECT … FOR UPDATE.
  // A gift that starts counting also reads what its notifications need (no locks).
  const emailsInLocale = gained && opts.successEmails && !isLocale(donation.locale);
  const [[counted], org, donorLocale, [movedFirst]] = await Promise.all([
    updateCampaignCounts(tx, {
      id: donation.campaignId,
      raised: sign * donation.amount,
      count: sign,
      unmatched: lost ? donation.matchedAmountCents : 0,
      tickets: ticketDelta * (donation.tickets ?? 0),
    }),
    gained ? first(organizationById(tx, { id: donation.orgId })) : undefined,
    emailsInLocale ? first(donorLocaleOf(tx, { id: donation.donorId })).then((d) => d?.locale ?? null) : undefined,
    moveRow(),
  ]);
  let campaign = counted;
  let moved = movedFirst;
  // The match is decided on the locked row: what is left under the cap after every earlier success.
  const match =
    gained && campaign.matchingEnabled
      ? matchFor(donation.amount, campaign.matchingRatioPct, campaign.matchingMaxCents, campaign.matchedAmountCents)
      : 0;
  // The public views of both show these totals (and the donor roll, the tickets left).
  campaignViewChanged(tx, campaign.id, campaign.parentCampaignId);

  const parentId = sign !== 0 ? campaign.parentCampaignId : null;
  let parent: Campaign | undefined;
  if (match > 0 || parentId) {
    const [withMatch, matchedRow, parentRows] = await Promise.all([
      match > 0 ? addCampaignMatch(tx, { id: donation.campaignId, matched: match }) : undefined,
      match > 0 ? setDonationMatch(tx, { id: donation.id, matched: match }) : undefined,
      parentId ? updateParentCounts(tx, { id: parentId, raised: sign * donation.amount, count: sign }) : undefined,
    ]);
    if (withMatch) campaign = withMatch[0];
    if (matchedRow) moved = matchedRow[0];
    parent = parentRows?.[0];
  }

  if (gained) moved = await issueReceiptNumber(tx, moved);
  // Everything else depends only on the rows above. The per-day totals move under the campaign
  // lock held since its UPDATE, like its raised amount.
  const notify = gained && org ? { org, campaign } : undefined;
  await Promise.all([
    sign !== 0 ? addToDailyTotals(tx, donation.id, sign === 1 ? 1 : -1) : undefined,
    sign !== 0 ? refreshDonorTotals(tx, donation, sign, paidNow(from, donation)) : undefined,
    timeline(),
    emitDonationEvent(tx, moved),
    failed,
    notify ? queueMilestones(tx, notify.org, notify.campaign) : undefined,
    notify && parent ? queueMilestones(tx, notify.org, parent) : undefined,
    notify && opts.successEmails ? queueSuccessEmails(tx, notify.org, notify.campaign, moved, donorLocale ?? null) : undefined,
  ]);
  return moved;
}

/**
 * A payment of this donation succeeded just now (not a dispute won back, not a renewal, whose
 * names are copied from the first gift): the moment the donor's record takes the donation's names.
 */
const paidNow = (from: DonationStatus, d: Donation) => (from === "PENDING" || from === "FAILED") && !d.isRenewal;

const first = async <T>(rows: Promise<T[]>): Promise<T | undefined> => (await rows)[0];

/**
 * Donor totals by delta on the locked row; first/last gift times are recomputed from the
 * donor's donations only when a gift stops counting (a delta cannot undo a min/max). A payment
 * that just succeeded also gives the donor the names and the language it was made with (starting
 * a donation never changes a donor: anyone can type anyone's email).
 */
async function refreshDonorTotals(tx: Tx, donation: Donation, sign: number, paid: boolean) {
  const { donorId, amount, id: donationId } = donation;
  if (sign > 0) {
    const names = (["firstName", "lastName", "locale"] as const).filter((k) => paid && donation[k]);
    await addDonorGift(names.join(","))(tx, { donorId, amount, donationId, ...pick(donation, names) });
    return;
  }
  // Lock the donor first (as the UPDATE would: NO KEY UPDATE, which new donations' foreign keys
  // don't block): the recomputation's subqueries read the snapshot taken when the UPDATE starts,
  // so an UPDATE that waited for a concurrent gift's lock would miss that gift's success.
  await lockDonor(tx, { donorId });
  await removeDonorGift(tx, { donorId, amount });
}

const pick = <T extends object, K extends keyof T>(o: T, keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/** A gift that starts counting: the donor's totals, and (a payment just made) the names and language given with it. */
const addDonorGift = variants((columns: string) => {
  // Read in SQL, not through a JS Date, which would drop the timestamp's microseconds.
  const at = sql`(select ${donations.succeededAt} from ${donations} where ${donations.id} = ${ph("donationId")})`;
  return prepared(`donor_add_gift_${columns}`, (db) =>
    db
      .update(donors)
      .set({
        totalGivenCents: sql`${donors.totalGivenCents} + ${ph("amount")}`,
        donationCount: sql`${donors.donationCount} + 1`,
        firstDonationAt: sql`least(${donors.firstDonationAt}, ${at})`,
        lastDonationAt: sql`greatest(${donors.lastDonationAt}, ${at})`,
        ...placeholders(columns ? columns.split(",") : []),
        updatedAt: sql`now()`,
      })
      .where(eq(donors.id, ph("donorId"))),
  );
});

const lockDonor = prepared("donor_lock", (db) =>
  db
    .select({ id: donors.id })
    .from(donors)
    .where(eq(donors.id, ph("donorId")))
    .for("no key update"),
);

const counted = sql`from ${donations} where ${donations.donorId} = ${ph("donorId")} and ${donations.status} = 'SUCCEEDED'`;
const removeDonorGift = prepared("donor_remove_gift", (db) =>
  db
    .update(donors)
    .set({
      totalGivenCents: sql`${donors.totalGivenCents} - ${ph("amount")}`,
      donationCount: sql`${donors.donationCount} - 1`,
      firstDonationAt: sql`(select min(${donations.succeededAt}) ${counted})`,
      lastDonationAt: sql`(select max(${donations.succeededAt}) ${counted})`,
      updatedAt: sql`now()`,
    })
    .where(eq(donors.id, ph("donorId"))),
);

const donorLocaleOf = prepared("donor_locale", (db) =>
  db
    .select({ locale: donors.locale })
    .from(donors)
    .where(eq(donors.id, ph("id"))),
);

/** Each goal threshold alerts once per campaign: the milestone row's primary key decides. */
async function queueMilestones(tx: Tx, org: Organization, campaign: Campaign) {
  const goal = campaign.goalAmountCents;
  if (!goal || !org.notificationEmail) return;
  const reached = MILESTONES.filter((pct) => campaign.raisedAmountCents * 100 >= pct * goal);
  if (reached.length === 0) return;
  const fresh = await insertMilestones(reached.length)(tx, {
    campaignId: campaign.id,
    ...Object.fromEntries(reached.map((pct, i) => [`pct${i}`, pct])),
  });
  const to = org.notificationEmail;
  await enqueueEmails(
    tx,
    fresh.map(({ thresholdPct }) => ({
      template: "milestone",
      to,
      orgId: org.id,
      dedupeKey: `milestone:${campaign.id}:${thresholdPct}`,
      props: {
        orgName: org.name,
        campaignTitle: campaign.title,
        thresholdPct: thresholdPct as (typeof MILESTONES)[number],
        raisedAmountCents: campaign.raisedAmountCents,
        goalAmountCents: goal,
        currency: org.currency,
        dashboardUrl: `${getEnv().appUrl}/dashboard/${org.slug}/campaigns/${campaign.id}`,
      },
    })),
  );
}

function fullName(d: Pick<Donation, "firstName" | "lastName">): string | null {
  return [d.firstName, d.lastName].filter(Boolean).join(" ") || null;
}

/**
 * Receipt to the donor, notification to the organization, tribute to the honoree's contact: once
 * each. The receipt and the tribute are written in the gift's language (a renewal has its plan's
 * first gift's), else the donor's, else the organization's default; the notification in English.
 */
async function queueSuccessEmails(tx: Tx, org: Organization, campaign: Campaign, d: Donation, donorLocale: string | null) {
  const appUrl = getEnv().appUrl;
  const locale = emailLocale(d.locale, donorLocale, org.defaultLocale);
  const campaignUrl = `${donateBaseUrl(org)}/donate/${campaign.slug}`;
  const emails: QueuedEmail[] = [];
  emails.push({
    template: "receipt",
    to: d.email,
    orgId: org.id,
    dedupeKey: `receipt:${d.id}`,
    props: {
      donorFirstName: d.firstName,
      donorName: fullName(d),
      donorEmail: d.email,
      amountCents: d.amount + d.feeCents,
      currency: d.currency,
      campaignTitle: campaign.title,
      orgName: org.name,
      orgLegalName: org.legalName,
      orgTaxId: org.taxId,
      date: (d.succeededAt ?? new Date()).toISOString(),
      donationId: d.id,
      dedication: d.dedication ? { type: d.dedication.type, honoreeName: d.dedication.honoreeName, message: d.dedication.message } : null,
      recurring: d.recurringInterval ? { interval: d.recurringInterval, amountCents: d.amount + d.feeCents, currency: d.currency } : null,
      isRenewal: d.isRenewal,
      tickets: d.tickets,
      campaignUrl,
      accountUrl: `${donateBaseUrl(org)}/account`,
      locale,
    },
  });
  if (org.notificationEmail) {
    emails.push({
      template: "admin-notification",
      to: org.notificationEmail,
      orgId: org.id,
      dedupeKey: `admin:${d.id}`,
      props: {
        orgName: org.name,
        donorName: fullName(d),
        donorEmail: d.email,
        anonymous: d.anonymous,
        amountCents: d.amount,
        currency: d.currency,
        campaignTitle: campaign.title,
        message: d.message,
        donationId: d.id,
        isRenewal: d.isRenewal,
        recurringInterval: d.recurringInterval,
        dashboardUrl: `${appUrl}/dashboard/${org.slug}/donations/${d.id}`,
      },
    });
  }
  const notify = d.dedication?.notifyEmail;
  if (d.dedication && notify) {
    emails.push({
      template: "tribute",
      to: notify,
      orgId: org.id,
      dedupeKey: `tribute:${d.id}`,
      props: {
        honoreeName: d.dedication.honoreeName,
        type: d.dedication.type,
        donorName: fullName(d),
        anonymous: d.anonymous,
        message: d.dedication.message,
        campaignTitle: campaign.title,
        orgName: org.name,
        campaignUrl,
        locale,
      },
    });
  }
  await enqueueEmails(tx, emails);
}
