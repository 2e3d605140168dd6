import type { outbox } from "@/db/schema";

/** One row of the outbox: a side effect recorded with the state change that caused it, sent after commit. */
export type OutboxRecord = typeof outbox.$inferSelect;
