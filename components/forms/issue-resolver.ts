import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import { z } from "zod";
import { issueCodeOf } from "@/lib/errors";
import { issueText, type IssueTextOptions } from "./issue-text";

/**
 * A react-hook-form resolver over a zod schema whose messages are worded by `issueText`: each
 * issue's code and values (not the schema's wording, which the API keeps for its clients) make
 * the sentence shown next to the field. The schema may depend on the values (a dedication is
 * checked only when the donor adds one), so it is asked for on every check.
 */
export function issueResolver<Values extends FieldValues, Output>(
  schemaFor: (values: Values) => z.ZodType<Output>,
  opts: IssueTextOptions = {},
): Resolver<Values, unknown, Output> {
  const worded = z.custom<Values>().transform(async (values, ctx) => {
    const result = await schemaFor(values).safeParseAsync(values);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const message = issueText(issue.path.map(String).join("."), issueCodeOf(issue), issue.message, opts);
      ctx.addIssue({ ...issue, message } as z.core.$ZodRawIssue);
    }
    return z.NEVER;
  });
  return zodResolver(worded) as unknown as Resolver<Values, unknown, Output>;
}
