import { z } from "zod";

/** Path parameters of the donor account API, `/api/donor/orgs/[orgSlug]/...` (the wrapper's `auth: "donor"` reads `orgSlug`). */
export const donorOrgParam = z.object({ orgSlug: z.string().min(1).max(100) });
