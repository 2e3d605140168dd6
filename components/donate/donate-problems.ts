import { issueCodeOf } from "@/lib/errors";
import type { FormCheckResult } from "./donate-schema";
import type { FieldProblem, FieldProblems } from "./form-values";
import type { DonateWording } from "./issue-words";

/**
 * The donate form's problems: the check's issues worded by their codes and values in the page's
 * language (components/donate/issue-words.ts). The rules depend on the values (a dedication is
 * checked only when the donor adds one), so they are asked for on every check. Each field shows
 * its first issue.
 */
export function donateProblems<Values>(
  checkFor: (values: Values) => { safeParse(values: Values): FormCheckResult<unknown> },
  wording: DonateWording,
): (values: Values) => FieldProblems {
  return (values) => {
    const result = checkFor(values).safeParse(values);
    const problems: Record<string, FieldProblem> = {};
    if (result.success) return problems;
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join(".");
      if (problems[path]) continue;
      problems[path] = { type: issue.code, message: wording.text(path, issueCodeOf(issue), issue.message) };
    }
    return problems;
  };
}
