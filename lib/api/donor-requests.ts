import type { Db } from "@/db";
import { findDonor } from "@/db/queries/donors";
import type { donorRequests } from "@/db/schema";
import { donorRequestParams, donorRequestSchema, serializeDonorRequest, type DonorRequestView } from "@/lib/schemas/donor-data";
import { orgScope, type RouteDoc } from "./route";

/** Approving or rejecting a donor's data request: an admin of the path's organization decides one request. */
export const DONOR_REQUEST_DECISION_ROUTE = { params: donorRequestParams, scope: orgScope, role: "ADMIN" } as const;

/** What both decisions answer: the request as it stands once decided, or why it could not be decided. */
export const DONOR_REQUEST_DECISION_DOC: Pick<RouteDoc, "tag" | "success" | "response" | "notFound" | "conflicts"> = {
  tag: "Donors",
  success: 200,
  response: donorRequestSchema,
  notFound: "Organization not found, or Donor request not found",
  conflicts: ["Donor request was already decided"],
};

/** A decided request as staff see it, with its donor's email and name. */
export async function serializeDecidedDonorRequest(db: Db, request: typeof donorRequests.$inferSelect): Promise<DonorRequestView> {
  return serializeDonorRequest(request, (await findDonor(db, request.donorId))!);
}
