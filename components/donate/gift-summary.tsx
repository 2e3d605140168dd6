import { Checkbox } from "./fields";
import { INTERVAL_ADVERB } from "./format";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

/** The offer to cover the card fees. */
export function CoverFees({ f, organizationName }: { f: DonateFormState; organizationName: string }) {
  const { feeCents, amountCents, money } = f;
  return (
    <Checkbox
      id={f.ids.id("coverFees")}
      checked={f.values.coverFees}
      onChange={(v) => f.setValue("coverFees", v)}
      label={
        feeCents !== null ? (
          <>
            Add <span className={styles.num}>{money(feeCents)}</span> to cover card fees
          </>
        ) : (
          "Cover the card fees"
        )
      }
      hint={`So ${organizationName} receives ${amountCents !== null ? `the full ${money(amountCents)}` : "your whole gift"}.`}
      reserveHint
    />
  );
}

/** What the donor is about to give, and what a sponsor adds. */
export function GiftSummary({ f }: { f: DonateFormState }) {
  const { campaign, isEvent, totalCents, interval, tickets, matchCents, money } = f;
  return (
    <div className={styles.summary}>
      <p className={styles.summaryLine}>
        {totalCents === null ? (
          <>{isEvent ? "Choose how many tickets you need" : "Choose an amount to continue"}</>
        ) : (
          <>
            You&apos;ll {isEvent ? "pay" : "give"} <strong className={styles.num}>{money(totalCents)}</strong>
            {interval ? ` ${INTERVAL_ADVERB[interval]}` : isEvent ? ` for ${tickets} ticket${tickets === 1 ? "" : "s"}` : ""}
          </>
        )}
      </p>
      {campaign.matchingEnabled && (
        <p className={styles.matchLine}>
          {matchCents !== null && matchCents > 0 ? (
            <>
              <strong className={styles.num}>+{money(matchCents)}</strong> matched
              {campaign.matchingOrgName ? ` by ${campaign.matchingOrgName}` : ""} while funds last
            </>
          ) : (
            <>Gifts are matched while matching funds last</>
          )}
        </p>
      )}
    </div>
  );
}
