import type { Donation } from "@/db/schema";
import { conflict } from "@/lib/errors";

/** Corrections and voids are for gifts staff recorded or imported; online gifts are refunded instead. */
export function assertStaffRecorded(d: Pick<Donation, "source">, message: string): void {
  if (d.source === "ONLINE") throw conflict("donation_not_editable", message);
}
