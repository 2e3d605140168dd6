import { orgParam } from "@/lib/schemas/common";
import { orgScope } from "./route";

/** What every `/api/orgs/:idOrSlug/…` route starts from: the organization named in the path, the scope it authorizes against. */
export const ORG_ROUTE = { params: orgParam, scope: orgScope } as const;

/** The same, for routes only the organization's admins (and owners) may call. */
export const ORG_ADMIN_ROUTE = { ...ORG_ROUTE, role: "ADMIN" } as const;
