"use server";

import type { z } from "zod";
import { addMemberBody, createOrganizationBody, updateOrganizationBody } from "@/lib/schemas/organizations";

const SHAPES: Record<"create" | "update" | "member", Record<string, z.ZodType>> = {
  create: createOrganizationBody.shape,
  update: updateOrganizationBody.shape,
  member: addMemberBody.shape,
};

/**
 * The message the API's organization schemas give for one field's value, or null when it is
 * valid. A server function because lib/schemas/organizations.ts reads the server's environment
 * (for donate URLs) and so cannot be bundled for the browser; the forms still show exactly the
 * API's messages, on blur, before anything is submitted.
 */
export async function checkOrgField(form: "create" | "update" | "member", field: string, value: unknown): Promise<string | null> {
  const shape = SHAPES[form];
  if (!shape || !Object.hasOwn(shape, field)) return null;
  const r = shape[field].safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? "Invalid value");
}
