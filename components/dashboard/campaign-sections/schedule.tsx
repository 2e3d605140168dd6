"use client";

import { TextField } from "@/components/ui/field";
import { timeZoneLabel } from "@/lib/time-zone";
import { Section, type CampaignFields } from "./section";

/** When the campaign starts and ends, and when a draft publishes itself; typed in the organization's time zone. */
export function ScheduleSection({ fields, timeZone }: { fields: CampaignFields; timeZone: string }) {
  const { text, has } = fields;
  const dateHint = `In the organization's time zone (${timeZoneLabel(timeZone)}), as donors will see it.`;
  return (
    <Section id="cs-schedule" title="Dates">
      <div className="form-grid">
        <TextField {...text("startDate")} type="datetime-local" label="Starts" optional hint={dateHint} />
        <TextField {...text("endDate")} type="datetime-local" label="Ends" optional hint="The campaign ends by itself at this time." />
      </div>
      {has("scheduledPublishAt") ? (
        <TextField
          {...text("scheduledPublishAt")}
          type="datetime-local"
          label="Publish automatically at"
          optional
          hint="Saved as a draft, then published at this time (within a minute)."
        />
      ) : null}
    </Section>
  );
}
