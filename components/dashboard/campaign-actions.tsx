"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button, type ButtonSize } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { useToast } from "@/components/ui/toast";
import { api } from "./api-client";
import { ConfirmGroup } from "@/components/ui/confirm-group";

export type CampaignStatus = "DRAFT" | "ACTIVE" | "PAUSED" | "ENDED";

/** The allowed status changes: DRAFT→ACTIVE, ACTIVE↔PAUSED, ACTIVE|PAUSED→ENDED; ENDED is final. */
export const TRANSITIONS: Record<CampaignStatus, { to: CampaignStatus; label: string; done: string }[]> = {
  DRAFT: [{ to: "ACTIVE", label: "Publish", done: "published" }],
  ACTIVE: [
    { to: "PAUSED", label: "Pause", done: "paused" },
    { to: "ENDED", label: "End", done: "ended" },
  ],
  PAUSED: [
    { to: "ACTIVE", label: "Resume", done: "resumed" },
    { to: "ENDED", label: "End", done: "ended" },
  ],
  ENDED: [],
};

/** PATCH /api/campaigns/:id { status }, with a toast and a refresh of the server-rendered page. */
export function useStatusChange() {
  const router = useRouter();
  const toast = useToast();
  const [pending, setPending] = useState<CampaignStatus | null>(null);
  async function change(campaign: { id: string; title: string }, to: CampaignStatus, done: string): Promise<boolean> {
    setPending(to);
    const res = await api("PATCH", `/api/campaigns/${encodeURIComponent(campaign.id)}`, { status: to });
    setPending(null);
    if (!res.ok) {
      const detail = Object.values(res.fieldErrors).flat()[0];
      toast.show(detail ? `${res.error}: ${detail}` : res.error, "error");
      return false;
    }
    toast.show(`“${campaign.title}” ${done}`);
    router.refresh();
    return true;
  }
  return { pending, change };
}

/**
 * Publish / pause / resume / end buttons for one campaign. Ending is final, so it asks first,
 * inline: the confirmation takes focus, Escape or Cancel puts it back.
 */
export function StatusButtons({
  campaign,
  size = "small",
  canEdit,
}: {
  campaign: { id: string; title: string; status: CampaignStatus };
  size?: ButtonSize;
  canEdit: boolean;
}) {
  const { pending, change } = useStatusChange();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const endRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  if (!canEdit) return null;
  const options = TRANSITIONS[campaign.status];
  if (confirming) {
    return (
      <ConfirmGroup
        className="row-actions"
        label={`Confirm ending ${campaign.title}`}
        onCancel={() => {
          setConfirming(false);
          requestAnimationFrame(() => endRef.current?.focus());
        }}
      >
        <span className="small">End for good?</span>
        <Button
          ref={confirmRef}
          size={size}
          variant="danger"
          loading={pending === "ENDED"}
          onClick={async () => {
            await change(campaign, "ENDED", "ended");
            setConfirming(false);
          }}
        >
          Yes, end it
        </Button>
        <Button
          size={size}
          variant="ghost"
          onClick={() => {
            setConfirming(false);
            requestAnimationFrame(() => endRef.current?.focus());
          }}
        >
          Cancel
        </Button>
      </ConfirmGroup>
    );
  }
  return (
    <>
      {options.map((o) =>
        o.to === "ENDED" ? (
          <Button
            key={o.to}
            ref={endRef}
            size={size}
            variant="danger-outline"
            onClick={() => setConfirming(true)}
            disabled={pending !== null}
            aria-label={`End ${campaign.title}`}
          >
            {o.label}
          </Button>
        ) : (
          <Button
            key={o.to}
            size={size}
            variant={o.to === "ACTIVE" ? "primary" : "secondary"}
            loading={pending === o.to}
            disabled={pending !== null && pending !== o.to}
            onClick={() => change(campaign, o.to, o.done)}
            aria-label={`${o.label} ${campaign.title}`}
          >
            {o.label}
          </Button>
        ),
      )}
    </>
  );
}

/** A row's quick actions in the campaigns table. */
export function CampaignRowActions({
  campaign,
  donateUrl,
  canEdit,
}: {
  campaign: { id: string; title: string; status: CampaignStatus };
  donateUrl: string;
  canEdit: boolean;
}) {
  return (
    <div className="row-actions">
      <StatusButtons campaign={campaign} canEdit={canEdit} />
      <CopyButton value={donateUrl} label="Copy link" copiedLabel="Link copied" size="small" />
      {/* A draft's donate URL is its preview, for the organization's members only (donors get a 404 until it is published). */}
      <a className="button ghost small" href={donateUrl} target="_blank" rel="noopener noreferrer">
        {campaign.status === "DRAFT" ? "Preview" : "View"}
        <span className="sr-only"> donate page of {campaign.title} (opens in a new tab)</span>
      </a>
    </div>
  );
}
