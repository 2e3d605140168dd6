import { text, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";

// Column builders the tables share. Each call makes a new builder: a builder must never be
// shared between two tables. Not exported from the schema index: these are not tables.

/** An instant: every time the app stores is a `timestamp with time zone`. */
export const timestamptz = () => timestamp({ withTimezone: true });

/** When the row was inserted, set by the database. */
export const createdAt = () => timestamptz().notNull().defaultNow();

/** `created_at` and `updated_at`, both set by the database on insert. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: createdAt() });

/** A required reference to the row this one belongs to: deleting that row deletes this one. */
export const belongsTo = (target: () => AnyPgColumn) => text().notNull().references(target, { onDelete: "cascade" });
