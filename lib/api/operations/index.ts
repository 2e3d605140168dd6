import { FOUNDATION_OPERATIONS } from "./foundation";
import { JOB_OPERATIONS } from "./jobs";
import { PAYMENT_OPERATIONS } from "./payments";
import { RECORD_OPERATIONS } from "./records";
import { REPORT_OPERATIONS } from "./reports";
import type { OperationRow } from "./types";
import { WEBHOOK_OPERATIONS } from "./webhooks";

/** Every documented operation, one row each; a new endpoint is a new row in its domain's file. */
export const OPERATIONS: readonly OperationRow[] = [...FOUNDATION_OPERATIONS, ...PAYMENT_OPERATIONS, ...JOB_OPERATIONS, ...RECORD_OPERATIONS, ...WEBHOOK_OPERATIONS, ...REPORT_OPERATIONS];
