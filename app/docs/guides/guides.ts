import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The guides that ship with Goodfund: Markdown files in `docs/` at the repository's root, each
 * served at `/docs/guides/<slug>` and listed on `/docs`. Only the slugs listed here are read, so
 * a URL can never name another file.
 */
export const GUIDES = [
  { slug: "authentication", title: "Authentication and API keys", summary: "Session tokens, API keys, roles and what each may do." },
  { slug: "errors", title: "Errors", summary: "The error body, statuses, and validation details with machine-readable codes." },
  { slug: "rate-limits", title: "Rate limits", summary: "Limits per client IP and per caller, their headers, and retrying after a 429." },
  { slug: "pagination", title: "Pagination", summary: "Page-numbered lists and cursor-paged ones." },
  { slug: "idempotency", title: "Idempotency", summary: "Retrying a POST safely with an Idempotency-Key." },
  {
    slug: "payment-processor",
    title: "Payment processor webhooks and Stripe setup",
    summary: "Connecting Stripe: the webhook endpoint, its secret and the events to subscribe.",
  },
  { slug: "webhooks", title: "Outbound webhooks", summary: "Receiving Goodfund's events and verifying their signatures." },
  { slug: "modes", title: "Sandbox and Stripe mode", summary: "What changes between trying Goodfund and taking real payments." },
  { slug: "sdk", title: "The TypeScript SDK", summary: "A typed client with API keys, idempotent retries, pagination and webhook checks." },
  {
    slug: "python-sdk",
    title: "The Python SDK",
    summary: "Sync and async clients for Python: a method per operation, idempotent retries, paged iterators, webhook checks.",
  },
  {
    slug: "custom-domains",
    title: "Custom domains and embedding",
    summary: "An organization's own domain (DNS, TLS, what it serves), short links, and the donate form on your website.",
  },
  {
    slug: "languages",
    title: "Languages and currencies",
    summary: "Donate pages, donor accounts and donor emails in English, Spanish, French and German; amounts in each currency.",
  },
  {
    slug: "offline-gifts-and-receipts",
    title: "Offline gifts and receipts",
    summary: "Recording cheques, cash and transfers; corrections and voids; numbered receipts for the US, Canada and the UK; Gift Aid.",
  },
  {
    slug: "events",
    title: "Events: ticket tiers and check-in",
    summary: "Ticket tiers with capacities and fair market value, named attendees, QR tickets, and the check-in desk at the door.",
  },
  {
    slug: "donor-records",
    title: "Donor records",
    summary: "Phone, address, tags and email consent on a donor; staff notes; merging two records of one person.",
  },
  {
    slug: "recurring-revenue",
    title: "Keeping recurring revenue",
    summary: "Declined renewals and their recovery, expiring cards, reminders for unfinished gifts, and the monthly upsell.",
  },
  {
    slug: "deploying",
    title: "Deploying Goodfund",
    summary:
      "A VM with systemd behind nginx or Caddy, managed PostgreSQL with TLS and PgBouncer, Upstash, platforms that run Next.js, backups.",
  },
] as const;

export type Guide = (typeof GUIDES)[number];

export const findGuide = (slug: string): Guide | undefined => GUIDES.find((g) => g.slug === slug);

/** The directory of the guides: the app runs from the repository's root (`npm start`, `next start`). */
export const guidesDir = () => path.join(process.cwd(), "docs");

/** A guide's Markdown, read when its page is requested (so an edited guide shows without a rebuild). */
export function readGuide(guide: Guide): Promise<string> {
  return readFile(path.join(guidesDir(), `${guide.slug}.md`), "utf8");
}
