import { z } from "zod";
import { stripHtml } from "@/lib/html";
import type { DonorNoteRow } from "@/db/queries/donor-notes";
import { DONOR_SORTS } from "@/db/queries/donors";
import type { Donor } from "@/db/schema";
import { addressInput, addressSchema, phoneInput } from "./address";
import { email, iso, pageQuery, plainText } from "./common";
import { donationSchema, searchParam } from "./donations";
import { recurringPlanSchema } from "./recurring-plans";

export const DONOR_LIST_DEFAULT_LIMIT = 25;
/** How many of a donor's donations GET /api/donors/:id includes (newest first). */
export const DONOR_DETAIL_DONATIONS = 100;

/** The search and order shared by the donors list and its CSV export. */
const donorOrderFields = {
  q: searchParam.optional(),
  sort: z
    .enum(DONOR_SORTS)
    .default("total")
    .meta({
      description:
        "`total` (totalGivenCents), `lastGift` (lastDonationAt), `name` (last name, then first name, then email; " +
        "case-insensitive) or `createdAt`. Donors without a gift (lastGift) or a name (name) come last either way; " +
        "ties are broken by ID.",
    }),
  order: z.enum(["asc", "desc"]).default("desc"),
};

export const MAX_DONOR_TAGS = 50;
export const DONOR_SOURCES = ["ONLINE", "OFFLINE", "IMPORT"] as const;

/** One staff label: HTML stripped, trimmed, 1–40 characters. */
export const donorTag = plainText(40, 1);

const tagFilter = z
  .string()
  .max(400)
  .transform((s) => stripHtml(s).trim() || undefined)
  .pipe(z.string().max(40).optional())
  .meta({ description: "Only donors carrying this tag (exact, case-sensitive)." });

export const listDonorsQuery = z.object({ ...pageQuery, ...donorOrderFields, tag: tagFilter.optional() });
export const exportDonorsQuery = z.object({ ...donorOrderFields, tag: tagFilter.optional() });

export const donorSchema = z
  .object({
    id: z.string(),
    orgId: z.string(),
    email: z
      .string()
      .nullable()
      .meta({ description: "Null for a donor recorded without email (an offline gift): no receipts or emails go to them." }),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    totalGivenCents: z.number().int().meta({ description: "Sum of the donor's SUCCEEDED donations." }),
    donationCount: z.number().int().meta({ description: "How many of the donor's donations SUCCEEDED." }),
    firstDonationAt: z.string().nullable(),
    lastDonationAt: z.string().nullable(),
    erasedAt: z
      .string()
      .nullable()
      .meta({ description: "When the donor's personal data was erased: `email` is then a placeholder and the names null; totals stay." }),
    phone: z.string().nullable(),
    address: addressSchema.nullable(),
    tags: z.array(z.string()).meta({ description: `Staff labels, each 1–40 characters, at most ${MAX_DONOR_TAGS}.` }),
    emailOptIn: z.boolean().meta({ description: "Whether the donor agreed to hear from the organization by email." }),
    source: z.enum(DONOR_SOURCES).meta({ description: "How the record was created: a gift online, one recorded by staff, or an import." }),
    createdAt: z.string(),
  })
  .meta({ id: "Donor" });

export const donorDonationSchema = donationSchema.extend({ campaignTitle: z.string() }).meta({ id: "DonorDonation" });

export const donorDetailSchema = donorSchema
  .extend({
    donations: z
      .array(donorDonationSchema)
      .meta({ description: `The donor's newest ${DONOR_DETAIL_DONATIONS} donations, any status, newest first.` }),
    recurringPlans: z.array(recurringPlanSchema).meta({ description: "The donor's recurring plans, newest first." }),
  })
  .meta({ id: "DonorDetail" });

export type DonorView = z.output<typeof donorSchema>;

export function serializeDonor(d: Donor): DonorView {
  return {
    id: d.id,
    orgId: d.orgId,
    email: d.email,
    firstName: d.firstName,
    lastName: d.lastName,
    totalGivenCents: d.totalGivenCents,
    donationCount: d.donationCount,
    firstDonationAt: iso(d.firstDonationAt),
    lastDonationAt: iso(d.lastDonationAt),
    erasedAt: iso(d.erasedAt),
    phone: d.phone,
    address: d.address,
    tags: d.tags,
    emailOptIn: d.emailOptIn,
    source: d.source,
    createdAt: iso(d.createdAt)!,
  };
}

const name = plainText(100)
  .nullable()
  .transform((s) => (s ? s : null));

/** Tags as given, trimmed, without repeats (case-insensitive: the first spelling stays). */
const tagList = z
  .array(donorTag)
  .max(MAX_DONOR_TAGS)
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.filter((t) => {
      const key = t.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });

export const updateDonorBody = z
  .object({
    firstName: name,
    lastName: name,
    email: email.meta({ description: "Another donor of the organization with this email (case-insensitive): 409 `donor_email_taken`." }),
    phone: phoneInput,
    address: addressInput.nullable(),
    tags: tagList.meta({
      description: `Replaces the donor's tags: each 1–40 characters (HTML stripped), at most ${MAX_DONOR_TAGS}, repeats dropped.`,
    }),
    emailOptIn: z.boolean(),
  })
  .partial()
  .meta({ id: "UpdateDonor" });
export type UpdateDonorInput = z.output<typeof updateDonorBody>;

export const createDonorNoteBody = z
  .object({ body: plainText(5000, 1).meta({ description: "1–5 000 characters once HTML is stripped." }) })
  .meta({ id: "CreateDonorNote" });

export const donorNoteSchema = z
  .object({
    id: z.string(),
    donorId: z.string(),
    body: z.string(),
    author: z
      .object({ id: z.string(), name: z.string().nullable(), email: z.string() })
      .nullable()
      .meta({ description: "The staff member who wrote it; null when an API key wrote it or the user was deleted." }),
    createdAt: z.string(),
  })
  .meta({ id: "DonorNote" });
export type DonorNoteView = z.output<typeof donorNoteSchema>;

export const listDonorNotesQuery = z.object(pageQuery);

export const mergeDonorBody = z
  .object({ sourceDonorId: z.string().min(1).max(100).meta({ description: "The donor merged into this one, then removed." }) })
  .meta({ id: "MergeDonor" });

export function serializeDonorNote(r: DonorNoteRow): DonorNoteView {
  return { id: r.note.id, donorId: r.note.donorId, body: r.note.body, author: r.author, createdAt: iso(r.note.createdAt)! };
}
