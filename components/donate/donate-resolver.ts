import { toNestErrors } from "@hookform/resolvers";
import type { FieldError, FieldValues, Resolver } from "react-hook-form";
import { issueCodeOf } from "@/lib/errors";
import type { FormCheckResult } from "./donate-schema";
import type { DonateWording } from "./issue-words";

/**
 * The donate form's react-hook-form resolver: the check's issues worded by their codes and
 * values in the page's language (components/donate/issue-words.ts). The rules depend on the
 * values (a dedication is checked only when the donor adds one), so they are asked for on every
 * check. Each field shows its first issue.
 */
export function donateResolver<Values extends FieldValues, Output>(
  checkFor: (values: Values) => { safeParseAsync(values: Values): Promise<FormCheckResult<Output>> },
  wording: DonateWording,
): Resolver<Values, unknown, Output> {
  return async (values, _context, options) => {
    const result = await checkFor(values).safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join(".");
      if (errors[path]) continue;
      errors[path] = { type: issue.code, message: wording.text(path, issueCodeOf(issue), issue.message) };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}
