import { listLeaderboardPage } from "@/db/queries/fundraisers";
import { findPublicCampaign } from "@/db/queries/public-campaigns";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { json, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { notFound } from "@/lib/errors";
import { chooseLocale } from "@/lib/i18n/locales";
import { idParam } from "@/lib/schemas/common";
import {
  fundraiserSentAnswer,
  leaderboardEntrySchema,
  leaderboardQuery,
  serializeLeaderboardEntry,
  startFundraiserBody,
} from "@/lib/schemas/fundraisers";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { requestFundraiserPage } from "@/lib/services/fundraisers/start-fundraiser";

const LEADERBOARD_DEFAULT_LIMIT = 10;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/public/campaigns/:id/fundraisers: a peer-to-peer campaign's leaderboard of pages or teams, paged and searchable (public)
  GET: withRoute(
    {
      auth: "public",
      params: idParam,
      query: leaderboardQuery,
      doc: {
        operationId: "listPublicFundraisers",
        summary: "Leaderboard of a peer-to-peer campaign's fundraisers or teams",
        description:
          "The published supporters' pages (or, with `kind=teams`, team pages; with `teamId`, one team's members) of a " +
          `peer-to-peer campaign, most raised first, page-based (\`limit\` defaults to ${LEADERBOARD_DEFAULT_LIMIT}); ` +
          "`q` searches titles and supporters' names. Hidden and unapproved pages are never listed.",
        tag: "Public",
        success: 200,
        response: listOf(leaderboardEntrySchema),
        responseDescription: "A page of the leaderboard",
        notFound: "Campaign not found",
      },
    },
    async ({ db, params, query }) => {
      const { campaign, org } = await findPublicCampaign(db, { id: params.id });
      if (campaign.type !== "PEER_TO_PEER" || campaign.parentCampaignId) throw notFound("campaign_not_found", "Campaign not found");
      const page = pageOf(query, LEADERBOARD_DEFAULT_LIMIT);
      const { rows, total } = await listLeaderboardPage(
        db,
        campaign.id,
        { teams: query.kind === "teams", teamId: query.teamId, q: query.q || undefined },
        page,
      );
      const base = donateBaseUrl(org);
      return ok(
        pageList(
          rows.map((r) => serializeLeaderboardEntry(r, base)),
          page,
          total,
        ),
      );
    },
  ),
  // POST /api/public/campaigns/:id/fundraisers: a supporter asks to start a fundraiser page; the link to create it is emailed (public)
  POST: withRoute(
    {
      auth: "public",
      params: idParam,
      body: startFundraiserBody,
      doc: {
        operationId: "startFundraiser",
        summary: "Start a fundraiser page on a peer-to-peer campaign",
        description:
          "Emails the supporter a confirmation link (single use, 24 hours). Opening it shows a Continue button; continuing " +
          "creates their page (a PEER_TO_PEER child campaign, ACTIVE at once or DRAFT with `moderation: PENDING_APPROVAL` " +
          "when the campaign asks for approval), with `team` a team page it joins, or joins the team `teamId`, and signs " +
          "them in with the organization's donor cookie. 409 `supporter_pages_closed` when the campaign is not ACTIVE (a draft, " +
          "paused or ended one) or does not take pages.",
        tag: "Public",
        success: 202,
        response: fundraiserSentAnswer,
        responseDescription: "Accepted: the confirmation link was emailed",
        notFound: "Campaign not found",
        conflicts: ["This campaign is not taking new fundraiser pages"],
        bodyExamples: {
          page: { summary: "Start a page", value: { email: "maya@example.org", firstName: "Maya", lastName: "Okafor", goalAmountCents: 50_000 } },
          team: {
            summary: "Start a page and a team",
            value: { email: "maya@example.org", firstName: "Maya", lastName: "Okafor", team: { name: "Riverside Runners" } },
          },
        },
      },
    },
    async ({ db, params, body, req }) => {
      // A draft parent is found too, so its answer is 409 `supporter_pages_closed` (not open yet), not 404.
      const { campaign, org } = await findPublicCampaign(db, { id: params.id }, { includeDraft: true });
      const locale = body.locale ?? chooseLocale({ acceptLanguage: req.headers.get("accept-language"), orgDefault: org.defaultLocale });
      await requestFundraiserPage(db, org, campaign, body, { locale });
      return json({ sent: true }, { status: 202 });
    },
  ),
});
