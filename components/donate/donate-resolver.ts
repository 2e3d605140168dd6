import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import { z } from "zod";
import { issueCodeOf } from "@/lib/errors";
import type { DonateWording } from "./issue-words";

/**
 * The donate form's react-hook-form resolver: the zod schema's issues worded by their codes and
 * values in the page's language (components/donate/issue-words.ts), not by the schema's English,
 * which the API keeps for its clients. The schema depends on the values (a dedication is checked
 * only when the donor adds one), so it is asked for on every check.
 */
export function donateResolver<Values extends FieldValues, Output>(
  schemaFor: (values: Values) => z.ZodType<Output>,
  wording: DonateWording,
): Resolver<Values, unknown, Output> {
  const worded = z.custom<Values>().transform(async (values, ctx) => {
    const result = await schemaFor(values).safeParseAsync(values);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const message = wording.text(issue.path.map(String).join("."), issueCodeOf(issue), issue.message);
      ctx.addIssue({ ...issue, message } as z.core.$ZodRawIssue);
    }
    return z.NEVER;
  });
  return zodResolver(worded) as unknown as Resolver<Values, unknown, Output>;
}
