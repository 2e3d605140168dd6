"use client";

import { TextField } from "@/components/ui/field";
import { Section, type CampaignFields } from "./section";

/** When the campaign starts and ends, and when a draft publishes itself; typed in the browser's time zone. */
export function ScheduleSection({ fields, timeZone }: { fields: CampaignFields; timeZone: string | null }) {
  const { text, has } = fields;
  const dateHint = timeZone ? `Your local time (${timeZone.replace(/_/g, " ")}).` : "Your local time.";
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
