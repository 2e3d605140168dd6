"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { api, firstErrors } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { TextAreaField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";

export type NoteItem = { id: string; body: string; author: string; createdAt: string };

/** Staff notes on a donor, newest first, and a form to add one (POST /api/donors/:id/notes). */
export function DonorNotes({ donorId, notes }: { donorId: string; notes: NoteItem[] }) {
  const router = useRouter();
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const res = await api("POST", `/api/donors/${encodeURIComponent(donorId)}/notes`, { body });
    setBusy(false);
    if (res.ok) {
      setBody("");
      setError(null);
      router.refresh();
      return;
    }
    setError(firstErrors(res.fieldErrors).body ?? res.error);
    document.getElementById("dn-body")?.focus();
  }

  return (
    <div className="stack">
      <form className="form" onSubmit={submit} noValidate>
        <TextAreaField
          id="dn-body"
          label="Add a note"
          hint="Seen by staff only, never by the donor."
          rows={3}
          maxLength={5000}
          value={body}
          error={error}
          onChange={(e) => setBody(e.target.value)}
        />
        <div className="form-actions">
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? "Adding…" : "Add note"}
          </Button>
        </div>
      </form>
      {notes.length === 0 ? (
        <p className="muted small">No notes yet.</p>
      ) : (
        <ul className="plain-list stack" aria-label="Notes, newest first">
          {notes.map((n) => (
            <li key={n.id}>
              <p style={{ whiteSpace: "pre-wrap", margin: 0 }}>{n.body}</p>
              <p className="small muted" style={{ margin: 0 }}>
                {n.author} · <LocalTime iso={n.createdAt} />
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
