import type { Metadata } from "next";
import { StatementsPanel } from "@/components/dashboard/statements-panel";
import { PageHeader } from "@/components/ui/card";
import { getDb } from "@/db";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { FIRST_STATEMENT_YEAR } from "@/lib/schemas/statements";
import { listStatementRuns } from "@/lib/services/statements/send-statements";
import { listStatementYears } from "@/lib/services/statements/statement-years";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Year-end statements" };

// GET /dashboard/:orgSlug/statements: email donors their year-end statements (admins send, members
// follow the progress).
export default async function StatementsPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/statements`);
  const db = await getDb();
  const [runs, years] = await Promise.all([listStatementRuns(db, org.id), listStatementYears(db, org.id)]);
  const thisYear = new Date().getUTCFullYear();
  const missing = [
    !org.legalName && "legal name",
    !org.taxId && "tax ID",
    !org.address && "postal address",
    !org.receiptStatement && "receipt statement",
  ].filter((x): x is string => Boolean(x));
  return (
    <>
      <PageHeader
        eyebrow="Donors"
        title="Year-end statements"
        description="Email every donor a PDF of their gifts in a calendar year (UTC) for their tax records: each gift that was not refunded, renewals included, and the total. Donors can also download it from their account."
      />
      <StatementsPanel
        orgSlug={org.slug}
        canSend={roleSatisfies(role, "ADMIN")}
        firstYear={FIRST_STATEMENT_YEAR}
        thisYear={thisYear}
        years={years}
        missingSettings={missing}
        initialRuns={runs.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }))}
      />
    </>
  );
}
