import { getDb } from "@/db";
import { findPendingErasureRequest } from "@/db/queries/donor-requests";
import type { Donor, Organization } from "@/db/schema";
import styles from "./account.module.css";
import { DataRequestActions } from "./data-request-actions";

/**
 * The account page's "Your data" section: the donor downloads a copy of what the organization
 * holds about them, or asks to have their personal data erased (at once, or reviewed by the
 * organization first when it chose so; a request already waiting is said so instead).
 */
export async function DataRequests({
  org,
  donor,
}: {
  org: Pick<Organization, "name" | "slug" | "donorErasureNeedsApproval">;
  donor: Pick<Donor, "id">;
}) {
  const pending = await findPendingErasureRequest(await getDb(), donor.id);
  return (
    <section className={styles.card} aria-labelledby="your-data-title">
      <h2 id="your-data-title">Your data</h2>
      <p>
        Download a copy of everything {org.name} holds about you: your details, gifts, recurring plans and the emails sent to you. Or ask to
        have your personal data erased.
      </p>
      <DataRequestActions
        apiBase={`/api/donor/orgs/${encodeURIComponent(org.slug)}`}
        orgName={org.name}
        needsApproval={org.donorErasureNeedsApproval}
        pendingSince={pending ? pending.createdAt.toISOString() : null}
      />
    </section>
  );
}

export default DataRequests;
