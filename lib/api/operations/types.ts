import { z } from "zod";
import type { Role } from "@/db/schema";
import { pagePagination } from "@/lib/schemas/common";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const TAGS = [
  { name: "Organizations", description: "Organizations and their settings" },
  { name: "Members", description: "Who belongs to an organization, and with which role" },
  { name: "Campaigns", description: "Fundraising campaigns of an organization" },
  { name: "Public", description: "Unauthenticated views used by the hosted donate pages" },
  { name: "Donations", description: "Gifts: starting them, refunding them" },
  { name: "Processor", description: "The payment processor: payout-account onboarding and its webhook events" },
  { name: "Sandbox", description: "Sandbox mode only (no STRIPE_SECRET_KEY): the stand-ins for Stripe's hosted pages" },
  { name: "Donors", description: "The people who gave, one per organization and email, with their totals" },
  { name: "Recurring plans", description: "Monthly and yearly gifts: their subscriptions and what they raised" },
  { name: "Webhooks", description: "Outbound webhooks: endpoints that receive signed events, their delivery log, retries and test pings" },
  { name: "Jobs", description: "Background work, for hosts without long-running processes" },
  { name: "Reports", description: "Totals, time series and per-campaign numbers over a window of time" },
  { name: "Meta", description: "About the API itself" },
] as const;
export type Tag = (typeof TAGS)[number]["name"];

export type Example = { summary: string; value: unknown };

export type OperationRow = {
  /** The route file this row documents, relative to `app/api` and without `/route.ts`. */
  file: string;
  method: Method;
  operationId: string;
  summary: string;
  description?: string;
  tag: Tag;
  /** "public": no token; "user": any signed-in user; "cron": the CRON_SECRET as a bearer token; a role: member of the path's organization with at least that role. */
  access: "public" | "user" | "cron" | Role;
  /** The rate-limit policy `withRoute` applies ("none" for unlimited routes). */
  limit: "public" | "authenticated" | "none";
  /** Schema of the path parameters when the route exports one; otherwise they are plain strings. */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyExamples?: Record<string, Example>;
  success: 200 | 201 | 202 | 204;
  /** Schema of the success body (output side); absent for 204. */
  response?: z.ZodType;
  /** Media type of the success body: JSON unless said otherwise (CSV exports answer `text/csv`). */
  responseMediaType?: "application/json" | "text/csv";
  responseDescription: string;
  /** What answers 404, when the path has parameters. */
  notFound?: string;
  /** The 409 conflicts this operation can answer. */
  conflicts?: string[];
};

export const listOf = (item: z.ZodType) => z.object({ data: z.array(item), pagination: pagePagination });

export const ROLE_TEXT: Record<Role, string> = {
  OWNER: "Requires the OWNER role in the organization.",
  ADMIN: "Requires the ADMIN role (or OWNER) in the organization.",
  MEMBER: "Requires membership of the organization (any role).",
};

