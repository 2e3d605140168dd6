import type { Metadata } from "next";
import { AdminOnly } from "@/components/dashboard/ops/admin-only";
import { auditActionLabel } from "@/components/dashboard/ops/audit-labels";
import { AuditLogTable } from "@/components/dashboard/ops/audit-log-table";
import { one } from "@/components/dashboard/ops/dates";
import { CursorNotices, EmptyList, FilterForm } from "@/components/dashboard/ops/list-page";
import { PageHeader } from "@/components/ui/card";
import { SelectField } from "@/components/ui/field";
import { getDb } from "@/db";
import { listAuditActors, listAuditLogPage } from "@/db/queries/audit-log";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { AUDIT_ACTIONS, AUDIT_LOG_DEFAULT_LIMIT, decodeAuditCursor, encodeAuditCursor, serializeAuditEntry } from "@/lib/schemas/audit-log";
import { oneOf } from "@/components/dashboard/ops/paging";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Record<string, string | string[] | undefined>;
type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<SearchParams> };

const actorLabel = (a: { type: string; id: string; label: string | null }) =>
  a.type === "api_key" ? `${a.label ?? a.id} (API key)` : (a.label ?? a.id);

// GET /dashboard/:orgSlug/audit-log: every change staff made (admins), newest first, filtered by
// action and by who made it, with a cursor "Load more".
export default async function AuditLogPage({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const sp = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/audit-log`);
  const header = (
    <PageHeader
      eyebrow="Organization"
      title="Audit log"
      description="Who changed what, and when: campaigns, refunds, members, API keys, webhooks, settings and payouts. Entries are kept as written; nobody can edit or delete them."
    />
  );
  if (!roleSatisfies(role, "ADMIN")) {
    return (
      <AdminOnly
        header={header}
        orgSlug={org.slug}
        title="The audit log is for admins"
        why={<>It shows who changed what across the organization, with their addresses, so only admins and owners can read it.</>}
      />
    );
  }

  const db = await getDb();
  const actors = await listAuditActors(db, org.id);
  // The form's values, each checked; an unknown one is left out.
  const action = oneOf(AUDIT_ACTIONS, sp.action) ?? "";
  const actor = actors.some((a) => a.id === one(sp.actor)) ? one(sp.actor) : "";
  const rawCursor = one(sp.cursor);
  const cursor = rawCursor ? decodeAuditCursor(rawCursor) : null;
  const filter = { action: action || undefined, actor: actor || undefined };
  const { rows, nextCursor } = await listAuditLogPage(db, org.id, filter, { limit: AUDIT_LOG_DEFAULT_LIMIT, cursor });
  const filtered = Boolean(action || actor);

  const pageParams = new URLSearchParams();
  if (action) pageParams.set("action", action);
  if (actor) pageParams.set("actor", actor);
  const base = `/dashboard/${org.slug}/audit-log`;
  const next = nextCursor ? encodeAuditCursor(nextCursor) : null;
  const nextHref = next ? `${base}?${new URLSearchParams([...pageParams, ["cursor", next]])}` : null;
  const actorName = actor ? actorLabel(actors.find((a) => a.id === actor)!) : null;
  const caption = ["Audit log, newest first", action ? `action ${auditActionLabel(action)}` : null, actorName ? `by ${actorName}` : null]
    .filter(Boolean)
    .join(", ");

  return (
    <>
      {header}
      {actors.length > 0 ? (
        <FilterForm action={base} label="Filter the audit log" hint="Times are shown in your time zone." clearHref={filtered ? base : null}>
          <SelectField
            id="filter-action"
            name="action"
            label="Action"
            defaultValue={action}
            options={[{ value: "", label: "All actions" }, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: auditActionLabel(a) }))]}
          />
          <SelectField
            id="filter-actor"
            name="actor"
            label="Made by"
            defaultValue={actor}
            options={[{ value: "", label: "Anyone" }, ...actors.map((a) => ({ value: a.id, label: actorLabel(a) }))]}
          />
        </FilterForm>
      ) : null}
      <CursorNotices base={base} pageParams={pageParams} rawCursor={rawCursor} cursor={cursor} noun="entries" />
      {rows.length === 0 ? (
        filtered ? (
          <EmptyList title="No entries match these filters" icon="∅" href={base} linkLabel="Clear filters">
            Try another action, or anyone instead of one person or key.
          </EmptyList>
        ) : (
          <EmptyList title="Nothing has changed yet" icon="✓" href={`/dashboard/${org.slug}/campaigns`} linkLabel="Go to campaigns" primary>
            Every change your team or your API keys make shows up here: a campaign created or edited, a refund, a member added, a key
            created, a webhook or a setting changed. Create or edit a campaign to see the first entry.
          </EmptyList>
        )
      ) : (
        <AuditLogTable
          key={`${pageParams}|${rawCursor}`}
          orgSlug={org.slug}
          rows={rows.map(serializeAuditEntry)}
          nextCursor={next}
          apiQuery={new URLSearchParams([...pageParams, ["limit", String(AUDIT_LOG_DEFAULT_LIMIT)]]).toString()}
          nextHref={nextHref}
          caption={caption}
          startedAtCursor={Boolean(cursor)}
        />
      )}
    </>
  );
}
