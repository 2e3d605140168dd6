import type { z } from "zod";
import type { Db } from "@/db";
import type { ReportWindow } from "@/lib/report-window";
import { windowOf } from "@/lib/schemas/reports";
import { ORG_ROUTE } from "./org-route";
import { ok } from "./respond";
import { withRoute, type DefinedRouteHandler, type RouteDoc } from "./route";

type ReportOptions<Q, S> = {
  /** The window (`from`, `to`) and whatever else the report takes. */
  query: Q;
  doc: Omit<RouteDoc, "tag" | "success" | "notFound" | "response"> & { response: S };
};

/** What a report computes; the window and the currency are added in front. */
type ReportNumbers<S extends z.ZodType> = Omit<z.output<S>, keyof ReportWindow | "currency">;

/**
 * A report on the path's organization, readable by its members: it answers the window as
 * understood and the organization's currency, followed by the report's own numbers.
 */
export function reportRoute<Q extends z.ZodType<{ from?: string; to?: string }>, S extends z.ZodType>(
  options: ReportOptions<Q, S>,
  numbers: (args: { db: Db; orgId: string; timeZone: string; query: z.output<Q>; window: ReportWindow }) => Promise<ReportNumbers<S>>,
): DefinedRouteHandler {
  const doc: RouteDoc = { ...options.doc, tag: "Reports", success: 200, notFound: "Organization not found" };
  return withRoute({ ...ORG_ROUTE, overload: "reports", query: options.query as z.ZodType, doc }, async ({ db, scope, query }) => {
    const parsed = query as z.output<Q>;
    const timeZone = scope.org.timeZone;
    const window = windowOf(parsed, timeZone);
    return ok({ ...window, currency: scope.org.currency, ...(await numbers({ db, orgId: scope.orgId, timeZone, query: parsed, window })) });
  });
}
