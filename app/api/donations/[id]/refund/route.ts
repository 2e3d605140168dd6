import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donationScope } from "@/lib/api/scopes";
import { getProcessor } from "@/lib/processor";
import { idParam } from "@/lib/schemas/common";
import { serializeDonation } from "@/lib/schemas/donations";
import { refundDonation } from "@/lib/services/donations/refund-donation";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donations/:id/refund: refund in full through the processor; the status follows its events (ADMIN)
  POST: withRoute({ params: idParam, scope: donationScope, role: "ADMIN" }, async ({ db, scope, user }) =>
    ok(serializeDonation(await refundDonation(db, await getProcessor(), scope.donation, user.id))),
  ),
});
