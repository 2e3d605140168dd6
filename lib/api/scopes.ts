import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { getCampaignOrThrow } from "@/db/queries/campaigns";
import { findDonor } from "@/db/queries/donors";
import { findImport } from "@/db/queries/imports";
import { findRecurringPlan } from "@/db/queries/recurring-plans";
import { findWebhookDelivery, findWebhookEndpoint } from "@/db/queries/webhooks";
import { donations } from "@/db/schema";
import { notFound } from "./errors";
import { orgScope } from "./route";

/** Scope of `/api/campaigns/:id` routes: the campaign, authorized against its organization. */
export async function campaignScope({ db, params }: { db: Db; params: { id: string } }) {
  const campaign = await getCampaignOrThrow(db, params.id);
  return { orgId: campaign.orgId, campaign };
}

/** Scope of `/api/donations/:id` routes. */
export async function donationScope({ db, params }: { db: Db; params: { id: string } }) {
  const [donation] = await db.select().from(donations).where(eq(donations.id, params.id)).limit(1);
  if (!donation) throw notFound("Donation not found");
  return { orgId: donation.orgId, donation };
}

/** Scope of `/api/donors/:id` routes: the donor, authorized against its organization. */
export async function donorScope({ db, params }: { db: Db; params: { id: string } }) {
  const donor = await findDonor(db, params.id);
  if (!donor) throw notFound("Donor not found");
  return { orgId: donor.orgId, donor };
}

/** Scope of `/api/recurring-plans/:id` routes. */
export async function recurringPlanScope({ db, params }: { db: Db; params: { id: string } }) {
  const plan = await findRecurringPlan(db, params.id);
  if (!plan) throw notFound("Recurring plan not found");
  return { orgId: plan.orgId, plan };
}

/** Scope of `/api/orgs/:idOrSlug/webhook-endpoints/:id/...` routes: the organization, then its endpoint (404 before 403). */
export async function webhookEndpointScope({ db, params }: { db: Db; params: { idOrSlug: string; id: string } }) {
  const { org } = await orgScope({ db, params });
  const endpoint = await findWebhookEndpoint(db, org.id, params.id);
  if (!endpoint) throw notFound("Webhook endpoint not found");
  return { orgId: org.id, org, endpoint };
}

/** Scope of `…/webhook-endpoints/:id/deliveries/:deliveryId/...` routes: one row of the endpoint's delivery log. */
export async function webhookDeliveryScope({ db, params }: { db: Db; params: { idOrSlug: string; id: string; deliveryId: string } }) {
  const scope = await webhookEndpointScope({ db, params });
  const delivery = await findWebhookDelivery(db, scope.endpoint.id, params.deliveryId);
  if (!delivery) throw notFound("Delivery not found");
  return { ...scope, delivery };
}

/** Scope of `/api/imports/:id` routes: the import, authorized against its organization. */
export async function importScope({ db, params }: { db: Db; params: { id: string } }) {
  const imp = await findImport(db, params.id);
  if (!imp) throw notFound("Import not found");
  return { orgId: imp.orgId, imp };
}
