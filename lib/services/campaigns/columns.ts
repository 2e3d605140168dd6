import type { campaigns } from "@/db/schema";
import type { CampaignInput } from "@/lib/schemas/campaigns";

type Columns = Partial<typeof campaigns.$inferInsert>;

const DATE_FIELDS = ["startDate", "endDate", "scheduledPublishAt"] as const;

/** Validated input → column values: ISO strings become Dates, absent fields stay absent. */
export function toColumns(input: CampaignInput): Columns {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    out[k] = (DATE_FIELDS as readonly string[]).includes(k) && typeof v === "string" ? new Date(v) : v;
  }
  return out as Columns;
}
