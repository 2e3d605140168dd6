"use client";

import { TextField } from "@/components/ui/field";
import { MAX_TICKETS_PER_ORDER_LIMIT } from "@/lib/schemas/campaigns";
import { moneyProps, Section, type CampaignFields, type MoneyInput } from "./section";

/** An event's tickets: price, capacity and how many one order may take. Shown for events only. */
export function EventSection({ fields, money, ticketsSold }: { fields: CampaignFields; money: MoneyInput; ticketsSold: number | null }) {
  const { text, has } = fields;
  if (!has("ticketPriceCents")) return null;
  return (
    <Section id="cs-event" title="Event tickets" hint="Each ticket is one gift of the ticket price; tickets are never oversold.">
      <div className="form-grid">
        <TextField {...text("ticketPriceCents")} label="Ticket price" required {...moneyProps(money)} />
        <TextField
          {...text("ticketCapacity")}
          label="Capacity"
          required
          inputMode="numeric"
          suffix="tickets"
          hint={ticketsSold !== null ? `${ticketsSold} sold so far.` : undefined}
        />
        <TextField
          {...text("maxTicketsPerOrder")}
          label="Tickets per order"
          required
          inputMode="numeric"
          suffix="tickets"
          hint={`How many tickets one donor may buy at once (1 to ${MAX_TICKETS_PER_ORDER_LIMIT}).`}
        />
      </div>
      <TextField
        {...text("venue")}
        label="Venue"
        optional
        autoComplete="off"
        hint="Where it takes place, as guests should read it: shown on the donate page under the date."
      />
    </Section>
  );
}
