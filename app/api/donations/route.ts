import { created } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/processor";
import { createDonationBody, serializeDonation } from "@/lib/schemas/donations";
import { createDonation } from "@/lib/services/donations/create-donation";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donations: start a donation; answers the PENDING donation and the payment form's client secret (public)
  POST: withRoute({ auth: "public", body: createDonationBody }, async ({ db, body, clientIp }) => {
    const result = await createDonation(db, await getProcessor(), body, { clientIp: clientIp === "unknown" ? null : clientIp });
    return created({
      ...serializeDonation(result.donation),
      clientSecret: result.clientSecret,
      subscriptionId: result.subscriptionId,
      chargeAmountCents: result.chargeAmountCents,
    });
  }),
});
