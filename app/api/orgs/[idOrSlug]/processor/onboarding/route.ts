import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/processor";
import { orgParam } from "@/lib/schemas/common";
import { startOnboarding } from "@/lib/services/organizations/start-onboarding";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/processor/onboarding: connect the payout account; answers { processorAccountId, url } (OWNER)
  POST: withRoute({ params: orgParam, scope: orgScope, role: "OWNER" }, async ({ db, scope }) =>
    ok(await startOnboarding(db, await getProcessor(), scope.org)),
  ),
});
