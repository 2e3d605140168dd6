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

/** The most items a zod array rule accepts, through optional and nullable wrappers. */
export function maxItemsOf(schema: z.ZodType): number | null {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return maxItemsOf(schema.unwrap() as z.ZodType);
  if (!(schema instanceof z.ZodArray)) return null;
  const { maximum } = schema._zod.bag as { maximum?: number };
  return typeof maximum === "number" ? maximum : null;
}
