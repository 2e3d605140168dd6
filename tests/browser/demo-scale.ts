/**
 * The share of the demo's year of gifts the browser tests' server plays (DEMO_HISTORY_SCALE)
 * before it answers: a tenth is enough history for the dashboard and reports screenshots, and
 * keeps the server's start short.
 */
export const DEMO_HISTORY_SCALE = 0.1;

/** Gifts the full demo history has at the least (tests/integration/demo-seed.test.ts checks the plan). */
export const FULL_HISTORY_MIN_GIFTS = 2_000;
