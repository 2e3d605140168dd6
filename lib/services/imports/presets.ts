import type { DonationMethod, ImportPreset } from "@/db/schema";

/** The fields a row gives, whichever platform wrote the file. */
export type ImportField =
  "email" | "firstName" | "lastName" | "fullName" | "amount" | "date" | "campaign" | "method" | "reference" | "externalId" | "status";

/**
 * How one platform's export names each field: the header names tried in order (case and spacing
 * of the header are ignored), what a `status` column must say for the row to be a completed gift,
 * and how a `method` column's values map to ours.
 */
export type Preset = {
  columns: Partial<Record<ImportField, readonly string[]>>;
  /** Fields whose column must be present in the header. */
  required: readonly ImportField[];
  /** Values of the status column that mean the money arrived (compared lower-case); absent: no status column. */
  paidStatuses?: readonly string[];
  /** The method every row has when the file names none. */
  defaultMethod: DonationMethod;
};

/** A platform's payment-method words, mapped to the methods of offline gifts. */
const METHOD_WORDS: Record<string, DonationMethod> = {
  card: "CARD",
  "credit card": "CARD",
  "debit card": "CARD",
  stripe: "CARD",
  paypal: "OTHER",
  venmo: "OTHER",
  ach: "BANK_TRANSFER",
  "bank transfer": "BANK_TRANSFER",
  bank_transfer: "BANK_TRANSFER",
  "us bank account": "BANK_TRANSFER",
  sepa: "BANK_TRANSFER",
  "sepa debit": "BANK_TRANSFER",
  cash: "CASH",
  check: "CHEQUE",
  cheque: "CHEQUE",
  daf: "DAF",
  stock: "STOCK",
  "in kind": "IN_KIND",
  in_kind: "IN_KIND",
  other: "OTHER",
};

export const METHODS: readonly DonationMethod[] = ["CARD", "CASH", "CHEQUE", "BANK_TRANSFER", "DAF", "STOCK", "IN_KIND", "OTHER"];

/** A method cell: one of ours by name (CHEQUE), or a platform's word for one (Credit Card); undefined when unknown. */
export function methodOf(value: string): DonationMethod | undefined {
  const v = value.trim();
  const upper = v.toUpperCase() as DonationMethod;
  if (METHODS.includes(upper)) return upper;
  return METHOD_WORDS[v.toLowerCase()];
}

export const PRESETS: Record<ImportPreset, Preset> = {
  // Goodfund's own import format (the API reference documents it): one gift a row.
  goodfund: {
    columns: {
      email: ["email"],
      firstName: ["first_name"],
      lastName: ["last_name"],
      amount: ["amount"],
      date: ["date"],
      campaign: ["campaign"],
      method: ["method"],
      reference: ["reference"],
      externalId: ["external_id"],
    },
    required: ["email", "amount", "date"],
    defaultMethod: "OTHER",
  },
  // Givebutter's Transactions export (Dashboard → Transactions → Export). Its field names are those
  // of Givebutter's documented Transaction object (docs.givebutter.com/reference/the-transaction-object:
  // id, number, campaign_code, first_name, last_name, email, method with the values card, paypal,
  // venmo, check, cash and ach, status with succeeded, authorized, failed and cancelled, amount,
  // transacted_at), which are tried first; the dashboard export's title-case headers
  // ("Transaction ID", "First Name", …) follow. Those are the best-known headers of that export:
  // no stored copy of its help-center page could be consulted. The one exception to the order:
  // a "Transaction ID" column is the external ID even when the file also has an "ID" column,
  // which in a dashboard export might name something else (a contact) and must not decide
  // which rows are duplicates.
  givebutter: {
    columns: {
      externalId: ["Transaction ID", "id"],
      date: ["transacted_at", "Transaction Date (UTC)", "Transaction Date", "Date"],
      firstName: ["first_name", "First Name"],
      lastName: ["last_name", "Last Name"],
      email: ["email"],
      amount: ["amount", "Donated"],
      campaign: ["campaign_code", "Campaign Code", "Campaign Title", "Campaign"],
      method: ["method", "Payment Method"],
      status: ["status"],
      reference: ["number", "Check Number", "Reference"],
    },
    required: ["email", "amount", "date"],
    paidStatuses: ["succeeded", "success", "completed", "paid", "authorized"],
    defaultMethod: "CARD",
  },
  // Donorbox's donations export (Donations → Export CSV), as described in Donorbox's help center
  // (donorbox.zendesk.com, "Exporting donation data"). No stored copy of its column list could be
  // consulted while writing this: the names below are the best-known headers of that export.
  donorbox: {
    columns: {
      externalId: ["Donation ID", "Transaction ID", "Id"],
      date: ["Donation Date", "Date"],
      firstName: ["Donor First Name", "First Name"],
      lastName: ["Donor Last Name", "Last Name"],
      fullName: ["Name", "Donor Name"],
      email: ["Donor Email", "Email"],
      amount: ["Amount", "Donation Amount"],
      campaign: ["Campaign", "Campaign Name"],
      method: ["Donation Type", "Payment Method"],
      status: ["Status"],
    },
    required: ["email", "amount", "date"],
    paidStatuses: ["paid", "succeeded", "completed", "successful"],
    defaultMethod: "CARD",
  },
  // Stripe's Payments export (Dashboard → Payments → Export, "unified_payments.csv"), whose
  // columns Stripe's docs list under "Export payments" (docs.stripe.com/payments/export and the
  // dashboard's column picker). Written from the best-known default columns of that export; no
  // stored copy of the page could be consulted. Amounts there are in major units ("25.00").
  stripe: {
    columns: {
      externalId: ["id"],
      date: ["Created date (UTC)", "Created (UTC)", "Created"],
      amount: ["Amount"],
      email: ["Customer Email", "Receipt Email"],
      fullName: ["Card Name", "Customer Name", "Customer Description"],
      reference: ["Description"],
      status: ["Status"],
      campaign: ["campaign (metadata)", "Campaign (metadata)"],
    },
    required: ["email", "amount", "date"],
    paidStatuses: ["paid", "succeeded"],
    defaultMethod: "CARD",
  },
};

const norm = (h: string) => h.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * Where each field is in a file with this header: the index of the first of the preset's names
 * the header has. Missing required columns are answered by name.
 */
export function locateColumns(preset: Preset, header: string[]): { at: Partial<Record<ImportField, number>>; missing: string[] } {
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    const key = norm(h.replace(/^\uFEFF/, ""));
    if (!index.has(key)) index.set(key, i);
  });
  const at: Partial<Record<ImportField, number>> = {};
  for (const [field, names] of Object.entries(preset.columns) as [ImportField, readonly string[]][]) {
    for (const name of names) {
      const i = index.get(norm(name));
      if (i !== undefined) {
        at[field] = i;
        break;
      }
    }
  }
  const missing = preset.required.filter((f) => at[f] === undefined).map((f) => preset.columns[f]![0]);
  return { at, missing };
}
