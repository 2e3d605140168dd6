import { FieldError } from "./field-error";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

/** An event's tickets: a number with − and + buttons, up to what one order may buy and what is left. */
export function TicketPicker({ f }: { f: DonateFormState }) {
  const { campaign, ids, tickets, amountCents, money, t } = f;
  const { id, errorId } = ids;
  const { maxTickets, ticketsLeft } = f.limits;
  const setTickets = (text: string) => {
    f.setValue("tickets", text);
    f.edited("tickets");
  };
  const atMax = Number.isInteger(tickets) && tickets >= maxTickets;

  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id("tickets")}>
        {t("form.tickets")}
      </label>
      <div className={styles.stepper}>
        <button
          type="button"
          className={styles.stepperButton}
          aria-label={t("form.ticketFewer")}
          data-step="-1"
          aria-controls={id("tickets")}
          // aria-disabled, not disabled: a disabled button would drop keyboard focus at the limit.
          aria-disabled={!(tickets > 1) || undefined}
          onClick={() => {
            if (tickets > 1) setTickets(String(Math.max(1, (Number.isInteger(tickets) ? tickets : 2) - 1)));
          }}
        >
          <span aria-hidden="true">−</span>
        </button>
        <input
          id={id("tickets")}
          name="tickets"
          data-max={maxTickets}
          className={`${styles.input} ${styles.stepperInput}`}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          value={f.values.tickets}
          onChange={(e) => setTickets(e.target.value.replace(/\D/g, "").slice(0, 3))}
          {...ids.invalidProps("tickets", id("tickets-hint"))}
        />
        <button
          type="button"
          className={styles.stepperButton}
          aria-label={t("form.ticketMore")}
          data-step="1"
          aria-controls={id("tickets")}
          aria-disabled={atMax || undefined}
          onClick={() => {
            if (!atMax) setTickets(String(Math.min(maxTickets, (Number.isInteger(tickets) ? tickets : 0) + 1)));
          }}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
      <p className={styles.hint} id={id("tickets-hint")}>
        {t("form.ticketPrice", { price: money(campaign.ticketPriceCents ?? 0) })}
        {ticketsLeft !== null && t("form.ticketsLeft", { count: ticketsLeft })}
      </p>
      <p className="sr-only" aria-live="polite" data-live="ticketsTotal">
        {amountCents !== null ? t("form.ticketsTotal", { count: tickets, amount: money(amountCents) }) : ""}
      </p>
      <FieldError id={errorId("tickets")} text={f.errorOf("tickets")} />
    </div>
  );
}
