"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { api } from "./api-client";

/** Approve or hide one supporter's page (POST /api/campaigns/:id/approve | hide), then refresh the list. */
export function FundraiserModeration({ page }: { page: { id: string; title: string; moderation: string | null; status: string } }) {
  const router = useRouter();
  const toast = useToast();
  const [pending, setPending] = useState(false);
  async function act(action: "approve" | "hide") {
    setPending(true);
    const res = await api("POST", `/api/campaigns/${encodeURIComponent(page.id)}/${action}`);
    setPending(false);
    if (!res.ok) {
      toast.show(res.error, "error");
      return;
    }
    toast.show(`“${page.title}” ${action === "approve" ? "approved" : "hidden"}`);
    router.refresh();
  }
  const hidden = page.moderation === "HIDDEN";
  const waiting = page.moderation === "PENDING_APPROVAL";
  return (
    <span className="row-actions">
      {(waiting || hidden) && (
        <Button size="small" onClick={() => act("approve")} disabled={pending}>
          {hidden ? "Show" : "Approve"} <span className="sr-only">{page.title}</span>
        </Button>
      )}
      {!hidden && (
        <Button size="small" variant="secondary" onClick={() => act("hide")} disabled={pending}>
          Hide <span className="sr-only">{page.title}</span>
        </Button>
      )}
    </span>
  );
}

/** "Email all fundraisers": one email per supporter with a page, queued through the outbox. */
export function EmailFundraisers({ campaignId }: { campaignId: string }) {
  const toast = useToast();
  const [pending, setPending] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    setPending(true);
    const res = await api<{ queued: number }>("POST", `/api/campaigns/${encodeURIComponent(campaignId)}/fundraisers/email`, {
      subject: String(data.get("subject") ?? ""),
      body: String(data.get("body") ?? ""),
    });
    setPending(false);
    if (!res.ok) {
      const detail = Object.values(res.fieldErrors).flat()[0];
      toast.show(detail ? `${res.error}: ${detail}` : res.error, "error");
      return;
    }
    toast.show(`${res.data.queued} email${res.data.queued === 1 ? "" : "s"} queued`);
    form.reset();
  }
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="email-fundraisers-title">
      <h2 id="email-fundraisers-title">Email all fundraisers</h2>
      <label className="field">
        <span>Subject</span>
        <input name="subject" required maxLength={200} />
      </label>
      <label className="field">
        <span>Message</span>
        <textarea name="body" required rows={5} maxLength={10000} />
      </label>
      <div>
        <Button type="submit" disabled={pending}>
          Queue the emails
        </Button>
      </div>
    </form>
  );
}
