import { boolean, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { belongsTo, createdAt, timestamptz } from "./columns";
import { donations, donors, type PostalAddress } from "./donations";
import { organizations } from "./organizations";

/**
 * Staff notes on a donor ("met at the gala"). Staff-side only: no donor page, email, export to
 * the donor or outbound webhook carries them. A merge moves them to the surviving donor.
 */
export const donorNotes = pgTable(
  "donor_notes",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    donorId: belongsTo(() => donors.id),
    /** Who wrote it; null once that user is deleted (the note stays). */
    authorId: text().references(() => users.id, { onDelete: "set null" }),
    body: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("donor_notes_donor_created_idx").on(t.donorId, t.createdAt, t.id)],
);

export type DonorNote = typeof donorNotes.$inferSelect;

/**
 * What a donor gave on the donate form besides the gift: email consent and a postal address. The
 * donor record takes them only when that donation's payment succeeds (anyone can start a
 * donation with anyone's email), once (`appliedAt`); the row stays as the record of the consent.
 */
export const donationDonorDetails = pgTable("donation_donor_details", {
  donationId: text()
    .primaryKey()
    .references(() => donations.id, { onDelete: "cascade" }),
  orgId: belongsTo(() => organizations.id),
  emailOptIn: boolean().notNull().default(false),
  address: jsonb().$type<PostalAddress>(),
  createdAt: createdAt(),
  appliedAt: timestamptz(),
});
