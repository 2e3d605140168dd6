import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { recoveryCodesSchema } from "@/lib/schemas/account-security";
import { regenerateRecoveryCodes } from "@/lib/services/two-factor/regenerate-recovery-codes";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/me/two-factor/recovery-codes: ten new recovery codes, shown once; the old ones stop working (a person, sensitive)
  POST: withRoute(
    {
      person: true,
      sensitive: true,
      doc: {
        operationId: "regenerateRecoveryCodes",
        summary: "Replace your recovery codes",
        tag: "Account security",
        success: 200,
        response: recoveryCodesSchema,
        responseDescription: "The new codes",
        conflicts: ["Two-factor authentication is not on for this account"],
      },
    },
    async (ctx) => ok(await regenerateRecoveryCodes(ctx.db, ctx.user, auditContextOf(ctx))),
  ),
});
