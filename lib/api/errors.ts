import type { z } from "zod";

export type ValidationDetails = { fieldErrors: Record<string, string[]>; formErrors: string[] };

/** The one error type of the API: anything thrown as an ApiError becomes the contract's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ValidationDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const unauthorized = () => new ApiError(401, "Unauthorized");
export const forbidden = () => new ApiError(403, "Forbidden");
export const notFound = (what = "Not found") => new ApiError(404, what);
export const conflict = (message: string) => new ApiError(409, message);

/** A 400 `Validation failed` with errors on named fields (dotted paths for nested ones). */
export function validationError(fieldErrors: Record<string, string[]>, formErrors: string[] = []): ApiError {
  return new ApiError(400, "Validation failed", { fieldErrors, formErrors });
}

export function fieldError(field: string, message: string): ApiError {
  return validationError({ [field]: [message] });
}

/** zod issues flattened the way zod's `flatten()` does, but with dotted names for nested fields. */
export function flattenIssues(issues: z.core.$ZodIssue[], prefix = ""): ValidationDetails {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    if (!key) formErrors.push(issue.message);
    else (fieldErrors[key] ??= []).push(issue.message);
  }
  return { fieldErrors, formErrors };
}
