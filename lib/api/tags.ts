/** The groups of the API reference, in the order the OpenAPI document and /docs list them; every operation names one (`doc.tag`). */
export const TAGS = [
  { name: "Organizations", description: "Organizations and their settings" },
  { name: "Members", description: "Who belongs to an organization, and with which role" },
  { name: "Campaigns", description: "Fundraising campaigns of an organization" },
  { name: "Public", description: "Unauthenticated views used by the hosted donate pages" },
  { name: "Donations", description: "Gifts: starting them, refunding them, recording and correcting offline gifts" },
  { name: "Receipts", description: "Numbered tax receipts per gift, their PDFs, and the UK Gift Aid claim" },
  { name: "Processor", description: "The payment processor: payout-account onboarding and its webhook events" },
  { name: "Sandbox", description: "Sandbox mode only (no STRIPE_SECRET_KEY): the stand-ins for Stripe's hosted pages" },
  { name: "Imports", description: "Bringing history from other platforms: CSV imports of donors and gifts, checked, committed, undone" },
  { name: "Donors", description: "The people who gave, one per organization and email, with their totals" },
  { name: "Recurring plans", description: "Monthly and yearly gifts: their subscriptions and what they raised" },
  { name: "API keys", description: "Keys for external clients: one organization each, with a role" },
  { name: "Webhooks", description: "Outbound webhooks: endpoints that receive signed events, their delivery log, retries and test pings" },
  { name: "Jobs", description: "Background work, for hosts without long-running processes" },
  { name: "Reports", description: "Totals, time series and per-campaign numbers over a window of time" },
  { name: "Audit log", description: "Who changed what in an organization, when, and from where" },
  {
    name: "Donor account",
    description: "A donor's own account on an organization's pages: their gifts, recurring plans and statements (donor cookie)",
  },
  {
    name: "Supporter pages",
    description: "Supporters' own peer-to-peer fundraiser pages and teams: theirs to edit, the gifts they received (donor cookie)",
  },
  {
    name: "Account security",
    description: "The signed-in person's own account: two-factor authentication, passkeys and signed-in sessions (session JWT only)",
  },
  { name: "Operations", description: "Health, readiness and metrics, for load balancers and monitoring" },
  { name: "Meta", description: "About the API itself" },
] as const;
export type Tag = (typeof TAGS)[number]["name"];
