import { randomBytes } from "node:crypto";

/**
 * A fresh value for a custom domain's `_goodfund.` TXT record. Random per organization and
 * domain, so one organization's record never verifies another's claim of the same domain; it is
 * not a secret (anyone can read DNS), only unguessable before it is shown.
 */
export function newCustomDomainToken(): string {
  return `goodfund-verification=${randomBytes(16).toString("hex")}`;
}
