"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { useToast } from "@/components/ui/toast";
import { isPast } from "./ops/dates";
import { updateCampaignBody } from "@/lib/schemas/campaigns";
import { api } from "./api-client";
import { StatusButtons, type CampaignStatus } from "./campaign-actions";
import { localInputToIso } from "./campaign-form-model";
import { ConfirmGroup } from "@/components/ui/confirm-group";

const EXPLAIN: Record<CampaignStatus, string> = {
  DRAFT: "Only your team can see it. Publish it to open the donate page.",
  ACTIVE: "The donate page is live and taking gifts.",
  PAUSED: "The donate page is visible but takes no gifts until you resume.",
  ENDED: "The campaign is closed for good. Its page and totals stay visible.",
};

/**
 * The campaign's lifecycle: publish now or at a set time (drafts), pause, resume, end
 * (PATCH status), and delete a draft that has no gifts (DELETE).
 */
export function CampaignStatusPanel({
  campaign,
  orgSlug,
  canEdit,
  timeZone,
}: {
  campaign: { id: string; title: string; status: CampaignStatus; scheduledPublishAt: string | null; donationCount: number };
  orgSlug: string;
  canEdit: boolean;
  /** The organization's time zone: the publishing time is typed in it. */
  timeZone: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [when, setWhen] = useState("");
  const [whenError, setWhenError] = useState<string | null>(null);
  const [busy, setBusy] = useState<null | "schedule" | "unschedule" | "delete">(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirmDelete) confirmRef.current?.focus();
  }, [confirmDelete]);

  function checkWhen(value: string): string | null {
    if (!value) return "Choose a date and time";
    const iso = localInputToIso(value, timeZone);
    if (!iso.ok) return iso.message;
    const r = updateCampaignBody.shape.scheduledPublishAt.safeParse(iso.value);
    return r.success ? null : (r.error.issues[0]?.message ?? "Invalid date");
  }

  async function schedule(value: string | null) {
    const msg = value === null ? null : checkWhen(value);
    setWhenError(msg);
    if (msg) {
      document.getElementById("cs-when")?.focus();
      return;
    }
    setBusy(value === null ? "unschedule" : "schedule");
    const iso = value === null ? null : (localInputToIso(value, timeZone) as { ok: true; value: string }).value;
    const res = await api("PATCH", `/api/campaigns/${encodeURIComponent(campaign.id)}`, { scheduledPublishAt: iso });
    setBusy(null);
    if (!res.ok) {
      const fe = res.fieldErrors.scheduledPublishAt?.[0];
      if (fe) setWhenError(fe);
      else toast.show(res.error, "error");
      return;
    }
    setWhen("");
    toast.show(value === null ? "Scheduled publishing cancelled" : "Publishing scheduled");
    router.refresh();
  }

  async function remove() {
    setBusy("delete");
    const res = await api("DELETE", `/api/campaigns/${encodeURIComponent(campaign.id)}`);
    if (!res.ok) {
      setBusy(null);
      setConfirmDelete(false);
      toast.show(res.error, "error");
      return;
    }
    toast.show(`Draft “${campaign.title}” deleted`);
    router.push(`/dashboard/${orgSlug}/campaigns`);
  }

  const past = when ? isPast(when) : false;

  return (
    <section className="card stack" style={{ gap: 12 }} aria-labelledby="status-title">
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 8 }}>
        <h2 id="status-title" className="card-title" style={{ margin: 0 }}>
          Status
        </h2>
        <StatusBadge status={campaign.status} />
      </div>
      <p className="small muted" style={{ margin: 0 }}>
        {EXPLAIN[campaign.status]}
      </p>
      {campaign.status === "DRAFT" && campaign.scheduledPublishAt ? (
        <p className="small" style={{ margin: 0 }}>
          Publishes automatically <LocalTime iso={campaign.scheduledPublishAt} />.
        </p>
      ) : null}
      {canEdit && campaign.status !== "ENDED" ? (
        <div className="button-row">
          <StatusButtons campaign={campaign} canEdit={canEdit} size="medium" />
        </div>
      ) : null}
      {canEdit && campaign.status === "DRAFT" ? (
        <>
          {campaign.scheduledPublishAt ? (
            <Button variant="secondary" loading={busy === "unschedule"} onClick={() => schedule(null)}>
              Cancel scheduled publishing
            </Button>
          ) : null}
          <form
            className="stack"
            style={{ gap: 8 }}
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void schedule(when);
            }}
          >
            <TextField
              id="cs-when"
              type="datetime-local"
              label={campaign.scheduledPublishAt ? "Reschedule publishing" : "Schedule publishing"}
              value={when}
              onChange={(e) => {
                setWhen(e.target.value);
                if (whenError) setWhenError(checkWhen(e.target.value));
              }}
              onBlur={() => when && setWhenError(checkWhen(when))}
              error={whenError}
              hint={past ? "That time has passed: the campaign will publish within a minute." : "Your local time."}
            />
            <Button type="submit" variant="secondary" loading={busy === "schedule"}>
              Schedule
            </Button>
          </form>
          {campaign.donationCount === 0 ? (
            confirmDelete ? (
              <ConfirmGroup className="button-row" label="Confirm deleting this draft" onCancel={() => setConfirmDelete(false)}>
                <span className="small">Delete this draft?</span>
                <Button ref={confirmRef} variant="danger" size="small" loading={busy === "delete"} onClick={remove}>
                  Yes, delete
                </Button>
                <Button variant="ghost" size="small" onClick={() => setConfirmDelete(false)}>
                  Cancel
                </Button>
              </ConfirmGroup>
            ) : (
              <Button variant="danger-outline" onClick={() => setConfirmDelete(true)}>
                Delete draft
              </Button>
            )
          ) : null}
        </>
      ) : null}
    </section>
  );
}
