import type { Db } from "@/db";
import { notFound } from "@/lib/errors";
import { cachedPublicCampaignView, type ViewAddress } from "./public-campaign-view";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/** GET /api/public/…: the campaign's public view from the process's cache, its JSON made once per load. */
export async function publicViewResponse(db: Db, by: ViewAddress): Promise<Response> {
  const cached = await cachedPublicCampaignView(db, by);
  if (!cached) throw notFound("campaign_not_found", "Campaign not found");
  return new Response(cached.json, { status: 200, headers: JSON_HEADERS });
}
