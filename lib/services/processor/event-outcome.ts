/** What a processor event came to: its effects applied, or ignored (not about anything of ours, or nothing to change). */
export type EventOutcome = "applied" | "ignored";

/** The processor event a change is recorded under: the donation timeline names it. */
export type EventSource = { id: string; type: string };
