import { orgParam } from "@/lib/schemas/common";
import { donorListQuery, donorOrgParam } from "@/lib/schemas/donor-account";
import { orgScope } from "./route";

/** What every `/api/orgs/:idOrSlug/…` route starts from: the organization named in the path, the scope it authorizes against. */
export const ORG_ROUTE = { params: orgParam, scope: orgScope } as const;

/** The same, for routes only the organization's admins (and owners) may call. */
export const ORG_ADMIN_ROUTE = { ...ORG_ROUTE, role: "ADMIN" } as const;

/** What the signed-in donor's own lists under `/api/donor/orgs/:orgSlug/…` take: the donor's session, a page. */
export const DONOR_LIST_ROUTE = { auth: "donor", params: donorOrgParam, query: donorListQuery } as const;
