import { z } from "zod";

/**
 * The longest text a zod rule accepts, for an input's maxLength: through optional and nullable
 * wrappers and pipes (a plain-text rule limits the text left after HTML is stripped, its last step).
 */
export function maxLengthOf(schema: z.ZodType): number | null {
  if (schema instanceof z.ZodString) return schema.maxLength;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return maxLengthOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return maxLengthOf(schema.out as z.ZodType) ?? maxLengthOf(schema.in as z.ZodType);
  return null;
}
