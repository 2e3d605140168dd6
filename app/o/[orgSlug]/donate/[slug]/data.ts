import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { cache } from "react";
import { getCurrentUser } from "@/lib/auth/server";
import { LOAD_HEADER } from "@/lib/overload";
import { findCampaignRow, viewOf } from "./campaign-data";

// The donate pages' data as the App Router's pages read it: the request's user (a draft's
// preview) and load (a light render), each read once per request.
export * from "./campaign-data";

/** findCampaignRow for the App Router's pages, cached per request, so a layout, its page and its metadata share one query. */
export const loadCampaign = cache(async (orgSlug: string, slug: string) => findCampaignRow(orgSlug, slug, getCurrentUser));

/** This request's clock, one reading shared by everything the page renders. */
export const requestNow = cache(() => Date.now());

/**
 * A new ID for each server render of a page: the client can tell a render it has shown before
 * (the browser restoring a page from memory) from a fresh one (components/donate/fresh-on-return.tsx).
 */
export const renderId = cache(() => randomUUID());

/**
 * The donor-facing view (progress, donor roll, leaderboard), as the public API answers it. Under
 * overload (`light`), without the donor roll and leaderboard: see isLightRender.
 */
export const loadView = cache(async (orgSlug: string, slug: string) => {
  const row = await loadCampaign(orgSlug, slug);
  return row ? viewOf(row, await isLightRender()) : null;
});

/**
 * Whether the server admitted this page view past its queue (server/overload.ts sets the
 * header, and drops any a client sends): render it without the costly sections.
 */
export const isLightRender = cache(async () => (await headers()).get(LOAD_HEADER) === "shed");
