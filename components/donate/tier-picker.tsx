import { extraGiftCents, type TicketOrderValue } from "./donate-schema";
import { FieldError } from "./field-error";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

/**
 * An event with ticket tiers: a − / + stepper per tier (up to what one order may buy and what the
 * tier has left), a name (and an optional email) for each guest, an optional extra gift, and the
 * order's total. Keyboard-first (buttons and inputs in reading order) and one column at 375 px.
 */
export function TierPicker({ f }: { f: DonateFormState }) {
  const { campaign, ids, money, t } = f;
  const { id, errorId } = ids;
  const order = f.values.ticketOrder;
  const total = order.reduce((n, l) => n + l.quantity, 0);
  const maxTotal = f.limits.maxTickets;

  const setOrder = (next: TicketOrderValue[]) => {
    f.setValue("ticketOrder", next);
    f.setValue("tickets", String(next.reduce((n, l) => n + l.quantity, 0)));
    f.edited("tickets");
  };
  const change = (tierId: string, quantity: number) =>
    setOrder(order.map((l) => (l.tierId === tierId ? { ...l, quantity, attendees: l.attendees.slice(0, quantity) } : l)));
  const setAttendee = (tierId: string, i: number, patch: Partial<{ name: string; email: string }>) =>
    setOrder(
      order.map((l) => {
        if (l.tierId !== tierId) return l;
        const attendees = Array.from({ length: l.quantity }, (_, k) => l.attendees[k] ?? { name: "", email: "" });
        attendees[i] = { ...attendees[i], ...patch };
        return { ...l, attendees };
      }),
    );
  const extra = extraGiftCents(f.values.extraGift, campaign, f.locale);

  return (
    <div className={styles.field}>
      <p className={styles.label} id={id("tickets")} tabIndex={-1}>
        {t("form.chooseTickets")}
      </p>
      {campaign.ticketTiers.map((tier) => {
        const line = order.find((l) => l.tierId === tier.id) ?? { tierId: tier.id, quantity: 0, attendees: [] };
        const left = Math.max(0, tier.capacity - tier.sold);
        const atMax = line.quantity >= left || total >= maxTotal;
        const qid = id(`tier-${tier.id}`);
        return (
          <fieldset
            key={tier.id}
            className={styles.fieldset}
            aria-describedby={`${qid}-hint`}
            data-tier={tier.id}
            data-price={tier.priceCents}
            data-left={left}
          >
            <legend className={styles.label}>
              {tier.name} · {money(tier.priceCents)}
            </legend>
            {tier.description ? <p className={styles.hint}>{tier.description}</p> : null}
            <div className={styles.stepper}>
              <button
                type="button"
                className={styles.stepperButton}
                aria-label={t("form.tierFewer", { tier: tier.name })}
                data-step="-1"
                aria-controls={qid}
                aria-disabled={line.quantity < 1 || undefined}
                onClick={() => line.quantity > 0 && change(tier.id, line.quantity - 1)}
              >
                <span aria-hidden="true">−</span>
              </button>
              <input
                id={qid}
                name={`ticketOrder.${tier.id}.quantity`}
                className={`${styles.input} ${styles.stepperInput}`}
                type="text"
                inputMode="numeric"
                pattern="[0-9]*"
                autoComplete="off"
                aria-label={t("form.tierQuantity", { tier: tier.name })}
                value={String(line.quantity)}
                onChange={(e) => {
                  const n = Number(e.target.value.replace(/\D/g, "").slice(0, 3) || "0");
                  change(tier.id, Math.min(n, left));
                }}
              />
              <button
                type="button"
                className={styles.stepperButton}
                aria-label={t("form.tierMore", { tier: tier.name })}
                data-step="1"
                aria-controls={qid}
                aria-disabled={atMax || undefined}
                onClick={() => !atMax && change(tier.id, line.quantity + 1)}
              >
                <span aria-hidden="true">+</span>
              </button>
            </div>
            <p className={styles.hint} id={`${qid}-hint`}>
              {t("form.ticketPrice", { price: money(tier.priceCents) })}
              {t("form.ticketsLeft", { count: left })}
            </p>
            {/* A row for every seat the order could hold, those beyond the quantity hidden: the page
                without React shows them as the quantity changes. */}
            {Array.from({ length: Math.max(line.quantity, Math.min(left, maxTotal)) }, (_, i) => {
              const a = line.attendees[i] ?? { name: "", email: "" };
              const n = i + 1;
              return (
                <div key={i} className={styles.field} hidden={i >= line.quantity} data-attendee={i}>
                  <label className={styles.label} htmlFor={`${qid}-a${i}-name`}>
                    {t("form.attendeeName", { n })} · {tier.name}
                  </label>
                  <input
                    id={`${qid}-a${i}-name`}
                    name={`ticketOrder.${tier.id}.${i}.name`}
                    className={styles.input}
                    autoComplete="off"
                    maxLength={140}
                    value={a.name}
                    onChange={(e) => setAttendee(tier.id, i, { name: e.target.value })}
                  />
                  <label className={styles.label} htmlFor={`${qid}-a${i}-email`}>
                    {t("form.attendeeEmail", { n })} · {tier.name}
                  </label>
                  <input
                    id={`${qid}-a${i}-email`}
                    name={`ticketOrder.${tier.id}.${i}.email`}
                    className={styles.input}
                    type="email"
                    autoComplete="off"
                    value={a.email}
                    onChange={(e) => setAttendee(tier.id, i, { email: e.target.value })}
                  />
                </div>
              );
            })}
          </fieldset>
        );
      })}
      <p className={styles.hint} hidden={total === 0} data-live="attendeesHint">
        {t("form.attendeesHint")}
      </p>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={id("extraGift")}>
          {t("form.extraGift")}
        </label>
        <input
          id={id("extraGift")}
          name="extraGift"
          className={styles.input}
          inputMode="decimal"
          autoComplete="off"
          value={f.values.extraGift}
          onChange={(e) => f.setValue("extraGift", e.target.value)}
          aria-invalid={extra === null || undefined}
        />
      </div>
      <p className={styles.label} aria-live="polite" data-testid="order-total" data-live="orderTotal" data-max={maxTotal}>
        {f.amountCents !== null ? t("form.orderTotal", { amount: money(f.amountCents) }) : ""}
      </p>
      <FieldError id={errorId("tickets")} text={f.errorOf("tickets")} />
    </div>
  );
}
