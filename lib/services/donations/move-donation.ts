import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { setAll, setTo, statement, variants } from "@/db/statements";
import { donationEvents, donations, type Campaign, type Donation, type DonationStatus } from "@/db/schema";
import { campaignViewChanged } from "@/lib/cache/public-campaign-view";
import { isLocale } from "@/lib/i18n/locales";
import { matchFor } from "@/lib/money";
import { numberOnOwnCampaign } from "@/db/queries/receipts";
import { applyGivenDetails } from "@/lib/services/donors/given-details";
import { issueReceiptNumber } from "@/lib/services/receipts/issue-receipt-number";
import { emitDonationEvent } from "@/lib/webhooks-out/emit";
import { addToDailyTotals } from "./daily-totals";
import { addMatchToCampaign, counts, countOnCampaign, countOnParent, holdsTickets, refreshDonorTotals } from "./donation-aggregates";
import { donorLocale, organizationOf, queueMilestones, queueSuccessEmails } from "./donation-effects";
import { isCountedFailure, markPaymentFailed } from "./failed-payments";
import { queueFundraiserGiftEmails } from "@/lib/services/fundraisers/fundraiser-emails";
import { moveTierSeats } from "@/lib/services/events/ticket-tiers";
import { issueTickets, voidReasonFor, voidTickets } from "@/lib/services/events/tickets";

export type MoveOptions = {
  /** Timeline entry type, e.g. `payment_intent.succeeded`. */
  timelineType: string;
  processorEventId?: string | null;
  data?: Record<string, unknown>;
  failureReason?: string | null;
  disputeReason?: string | null;
  /** Queue receipt, admin and tribute emails if this is the donation's first success. */
  successEmails?: boolean;
  /** A payment that succeeds gives its donor the details given with it (applyGivenDetails). */
  givenDetails?: boolean;
  /** What the event says about the payment, written in the same UPDATE of the donation. */
  set?: Pick<Partial<Donation>, "chargeId" | "paymentIntentId">;
  /**
   * An imported gift (or its undo): the aggregates move as for any gift, but no outbound webhook,
   * milestone alert or email goes out for it (the import emits one `import.completed`).
   */
  quiet?: boolean;
};

const ph = sql.placeholder;

// The statements below are built once (db/statements.ts) and run in the caller's transaction.

const insertTimeline = statement(donationEvents, (db) =>
  db
    .insert(donationEvents)
    .values({ donationId: ph("donationId"), type: ph("type"), processorEventId: ph("processorEventId"), data: ph("data") }),
);

/** The columns of MoveOptions.set an event gives, in a fixed order (a statement's shape). */
const setKeys = (set: MoveOptions["set"]): ("chargeId" | "paymentIntentId")[] =>
  set ? (["chargeId", "paymentIntentId"] as const).filter((k) => set[k] !== undefined) : [];

/** A donation that keeps its status: what the event says about the payment, and a reason with its time. */
const updateInPlace = variants((shape: string) => {
  const [keys, reason] = shape.split("|");
  return statement(donations, (db) =>
    db
      .update(donations)
      .set({
        ...setAll(keys ? keys.split(",") : []),
        ...(reason ? { failureReason: setTo("failureReason"), updatedAt: sql`now()` } : {}),
      })
      .where(eq(donations.id, ph("id")))
      .returning(),
  );
});

const setDonationMatch = statement(donations, (db) =>
  db
    .update(donations)
    .set({ matchedAmountCents: setTo("matched") })
    .where(eq(donations.id, ph("id")))
    .returning(),
);

/**
 * The donation's move: its new status and match, with the event's payment columns. Shape: the
 * payment columns set, whether it succeeds, and whether a failure or dispute reason is given.
 */
const updateMoved = variants((shape: string) => {
  const [keys, succeeded, failure, dispute] = shape.split("|");
  return statement(donations, (db) =>
    db
      .update(donations)
      .set({
        ...setAll(keys ? keys.split(",") : []),
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
 * Locks are taken donation → campaign → team page → parent campaign → donor, the same order everywhere.
 * A supporter's page in a team counts toward its team page as well as its parent.
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
  // A gift's first success takes its receipt number. On a campaign without a team or parent to
  // lock after it, the organization's counter is taken in the same round trip as the campaign's
  // UPDATE (numberOnOwnCampaign): the counter's lock, which every success of the organization
  // waits for, is then held no longer than the campaign's. Otherwise issueReceiptNumber takes it
  // after the parent's lock, below.
  const numberNow = gained && to === "SUCCEEDED" && !donation.receiptNumber && donation.source !== "IMPORT";
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
    await Promise.all([timeline(), opts.quiet ? undefined : emitDonationEvent(tx, moved), failed]);
    return moved;
  }

  // The UPDATE locks the campaign row (FOR NO KEY UPDATE, like any update that keeps the key):
  // new donations' foreign-key checks (KEY SHARE) on the campaign don't wait for it, so renewals
  // inserted concurrently no longer deadlock against this lock as they did behind a SELECT … FOR UPDATE.
  // A gift that starts counting also reads what its notifications need (no locks).
  const emailsInLocale = gained && opts.successEmails && !isLocale(donation.locale);
  const [[counted], , org, locale, [movedFirst], numbered] = await Promise.all([
    countOnCampaign(tx, donation, { sign, unmatched: lost ? donation.matchedAmountCents : 0, ticketDelta }),
    // The tiers' seats move with the campaign's count, under the row lock its UPDATE took.
    ticketDelta !== 0 && donation.ticketOrder ? moveTierSeats(tx, donation.campaignId, donation.ticketOrder, ticketDelta) : undefined,
    gained && !opts.quiet ? organizationOf(tx, donation.orgId) : undefined,
    emailsInLocale ? donorLocale(tx, donation.donorId) : undefined,
    moveRow(),
    numberNow ? numberOnOwnCampaign(tx, { donationId: donation.id }) : undefined,
  ]);
  let campaign = counted;
  let moved = numbered?.[0] ? { ...movedFirst, receiptNumber: numbered[0].receipt_number as string } : movedFirst;
  // The match is decided on the locked row: what is left under the cap after every earlier success.
  const match =
    gained && campaign.matchingEnabled
      ? matchFor(donation.amount, campaign.matchingRatioPct, campaign.matchingMaxCents, campaign.matchedAmountCents)
      : 0;
  // The public views of both show these totals (and the donor roll, the tickets left).
  campaignViewChanged(tx, campaign.id, campaign.teamId, campaign.parentCampaignId);

  // A supporter's page in a team counts toward the team page too; the team's UPDATE goes out
  // before the parent's, so the locks are taken page → team → parent, as a gift to the team page
  // itself takes team → parent.
  const parentId = sign !== 0 ? campaign.parentCampaignId : null;
  const teamId = sign !== 0 ? campaign.teamId : null;
  let parent: Campaign | undefined;
  let team: Campaign | undefined;
  if (match > 0 || parentId || teamId) {
    const [withMatch, matchedRow, teamRows, parentRows] = await Promise.all([
      match > 0 ? addMatchToCampaign(tx, donation.campaignId, match) : undefined,
      match > 0 ? setDonationMatch(tx, { id: donation.id, matched: match }) : undefined,
      teamId ? countOnParent(tx, teamId, donation, sign) : undefined,
      parentId ? countOnParent(tx, parentId, donation, sign) : undefined,
    ]);
    if (withMatch) campaign = withMatch[0];
    if (matchedRow) moved = matchedRow[0];
    team = teamRows?.[0];
    parent = parentRows?.[0];
  }

  if (gained) moved = await issueReceiptNumber(tx, moved);
  // A paid order's seats become tickets; an order that gives its seats back voids them.
  if (gained && moved.ticketOrder) await issueTickets(tx, moved);
  if (ticketDelta < 0 && donation.ticketOrder) await voidTickets(tx, donation.id, voidReasonFor(from, to));
  // Everything else depends only on the rows above. The per-day totals move under the campaign
  // lock held since its UPDATE, like its raised amount.
  const notify = gained && org && !opts.quiet ? { org, campaign } : undefined;
  await Promise.all([
    sign !== 0 ? addToDailyTotals(tx, donation.id, sign === 1 ? 1 : -1) : undefined,
    sign !== 0 ? refreshDonorTotals(tx, donation, sign, paidNow(from, donation)) : undefined,
    // After the donor's totals: the same row, in the same lock order.
    gained && opts.givenDetails ? applyGivenDetails(tx, moved) : undefined,
    timeline(),
    opts.quiet ? undefined : emitDonationEvent(tx, moved),
    failed,
    notify ? queueMilestones(tx, notify.org, notify.campaign) : undefined,
    notify && parent ? queueMilestones(tx, notify.org, parent) : undefined,
    notify && team ? queueMilestones(tx, notify.org, team) : undefined,
    notify && opts.successEmails ? queueSuccessEmails(tx, notify.org, notify.campaign, moved, locale ?? null) : undefined,
    notify && opts.successEmails && notify.campaign.fundraiserDonorId
      ? queueFundraiserGiftEmails(tx, notify.org, notify.campaign, moved)
      : undefined,
  ]);
  return moved;
}

/**
 * A payment of this donation succeeded just now (not a dispute won back, not a renewal, whose
 * names are copied from the first gift): the moment the donor's record takes the donation's names.
 */
const paidNow = (from: DonationStatus, d: Donation) => (from === "PENDING" || from === "FAILED") && !d.isRenewal;
