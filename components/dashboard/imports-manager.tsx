"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { SelectField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { TableHead, TableWrap, num } from "@/components/ui/table";
import { formatMoney } from "@/lib/money";
import type { ImportRowProblem, ImportView } from "@/lib/schemas/imports";

const PRESETS = [
  { value: "goodfund", label: "Goodfund CSV (email, first_name, last_name, amount, date, campaign, …)" },
  { value: "givebutter", label: "Givebutter transactions export" },
  { value: "donorbox", label: "Donorbox donations export" },
  { value: "stripe", label: "Stripe payments export" },
];

/** A CSV cell, quoted when it must be (RFC 4180) and defused against spreadsheet formulas. */
function cell(v: string | number): string {
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The bad rows as a CSV file: each error with the row's original line (as the server read it), to fix and upload again. */
function badRowsCsv(errors: ImportRowProblem[]): string {
  const out = ["row,field,code,message,original_line"];
  for (const e of errors) out.push([e.row, e.field, e.code, e.message, e.line ?? ""].map(cell).join(","));
  return "\uFEFF" + out.join("\r\n") + "\r\n";
}

/** Saves the bad rows of an import, from the moment it is checked to long after. */
function downloadBadRows(imp: ImportView) {
  const blob = new Blob([badRowsCsv(imp.errors)], { type: "text/csv" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `import-${imp.id}-bad-rows.csv`;
  a.click();
  URL.revokeObjectURL(a.href);
}

export function ImportsManager({
  orgId,
  currency,
  campaigns,
  initialHistory,
}: {
  orgId: string;
  currency: string;
  campaigns: { id: string; slug: string; title: string }[];
  initialHistory: ImportView[];
}) {
  const [preset, setPreset] = useState("goodfund");
  const [campaignId, setCampaignId] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [current, setCurrent] = useState<ImportView | null>(null);
  const [history, setHistory] = useState<ImportView[]>(initialHistory);
  const [busy, setBusy] = useState<"upload" | "commit" | string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const poll = useRef<ReturnType<typeof setTimeout> | null>(null);
  const campaignTitle = (id: string | null) => campaigns.find((c) => c.id === id)?.title ?? "—";

  const refreshHistory = useCallback(async () => {
    const res = await api<{ data: ImportView[] }>("GET", `/api/orgs/${orgId}/imports?limit=25`);
    if (res.ok) setHistory(res.data.data);
  }, [orgId]);

  useEffect(() => () => (poll.current ? clearTimeout(poll.current) : undefined), []);

  async function upload(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy("upload");
    setError(null);
    setCurrent(null);
    const query = new URLSearchParams({ preset });
    if (campaignId) query.set("campaignId", campaignId);
    try {
      const res = await fetch(`/api/orgs/${orgId}/imports?${query}`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "text/csv", Accept: "application/json" },
        body: file,
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) setError(body?.error ?? `The upload failed (${res.status})`);
      else setCurrent(body as ImportView);
    } catch {
      setError("The upload failed: check your connection and try again");
    }
    setBusy(null);
    await refreshHistory();
  }

  const follow = useCallback(
    (id: string) => {
      const tick = async () => {
        const res = await api<ImportView>("GET", `/api/imports/${id}`);
        if (res.ok) {
          setCurrent(res.data);
          if (res.data.status === "IMPORTING") {
            poll.current = setTimeout(tick, 500);
            return;
          }
        }
        await refreshHistory();
      };
      void tick();
    },
    [refreshHistory],
  );

  async function commit() {
    if (!current) return;
    setBusy("commit");
    const res = await api<ImportView>("POST", `/api/imports/${current.id}/commit`);
    setBusy(null);
    if (!res.ok) return setError(res.error);
    setCurrent(res.data);
    follow(res.data.id);
  }

  async function undo(id: string) {
    if (!window.confirm("Remove every gift this import created, and the donors it created that have no other gifts?")) return;
    setBusy(id);
    const res = await api<ImportView>("POST", `/api/imports/${id}/undo`);
    setBusy(null);
    if (!res.ok) return setError(res.error);
    if (current?.id === id) setCurrent(res.data);
    await refreshHistory();
  }

  const pct = current && current.valid > 0 ? Math.round((current.processed / current.valid) * 100) : 0;

  return (
    <>
      <Card title="Upload a file" id="import-upload">
        <form onSubmit={upload} className="stack">
          <SelectField
            id="import-preset"
            label="Exported from"
            value={preset}
            onChange={(e) => setPreset(e.target.value)}
            options={PRESETS}
          />
          <SelectField
            id="import-campaign"
            label="Campaign for rows without one"
            optional
            value={campaignId}
            onChange={(e) => setCampaignId(e.target.value)}
            options={[{ value: "", label: "None: such rows are refused" }, ...campaigns.map((c) => ({ value: c.id, label: c.title }))]}
          />
          <div className="field">
            <label htmlFor="import-file" className="label">
              CSV file (at most 20 MiB)
            </label>
            <input id="import-file" type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
          </div>
          <div className="button-row">
            <Button type="submit" loading={busy === "upload"} disabled={!file}>
              Check the file
            </Button>
          </div>
        </form>
      </Card>

      {error ? (
        <Notice tone="error" live title="That didn't work">
          {error}
        </Notice>
      ) : null}

      {current ? (
        <Card title="This file" id="import-current">
          <p>
            {current.rows} rows: <strong>{current.valid} valid</strong>, {current.invalid} with errors, {current.duplicates} already
            imported (skipped).
          </p>
          {current.status === "READY" ? (
            <div className="button-row">
              <Button onClick={commit} loading={busy === "commit"} disabled={current.valid === 0}>
                Import {current.valid} gifts
              </Button>
            </div>
          ) : null}
          {current.status === "IMPORTING" || current.status === "DONE" ? (
            <div className="progress">
              <div
                className="bar"
                role="progressbar"
                aria-label="Import progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={pct}
              >
                <div className="fill" style={{ width: `${pct}%` }} />
              </div>
              <div className="meta" role="status">
                <span>
                  {current.status === "DONE" ? "Done: " : "Importing: "}
                  {current.processed} of {current.valid} rows
                </span>
                <span>{pct}%</span>
              </div>
            </div>
          ) : null}
          {current.status === "UNDONE" ? <Notice tone="info">This import was undone.</Notice> : null}

          <h3>Preview (first {current.preview.length} rows, as they will be read)</h3>
          <TableWrap label="Preview of the first rows">
            <TableHead columns={["Row", "Email", "Name", num("Amount"), "Date", "Campaign", "Method", "External ID", "Status"]} />
            <tbody>
              {current.preview.map((r) => (
                <tr key={r.row}>
                  <td>{r.row}</td>
                  <td>{r.email ?? "—"}</td>
                  <td>{[r.firstName, r.lastName].filter(Boolean).join(" ") || "—"}</td>
                  <td className="num">{r.amount === null ? "—" : formatMoney(r.amount, currency)}</td>
                  <td>{r.date ? r.date.slice(0, 10) : "—"}</td>
                  <td>{campaignTitle(r.campaignId)}</td>
                  <td>{r.method ?? "—"}</td>
                  <td>{r.externalId ?? "—"}</td>
                  <td>{r.valid ? "OK" : "Error"}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>

          {current.errors.length > 0 ? (
            <>
              <h3>Errors</h3>
              <TableWrap label="Errors per row">
                <TableHead columns={["Row", "Field", "Code", "Problem"]} />
                <tbody>
                  {current.errors.map((e, i) => (
                    <tr key={`${e.row}-${e.field}-${i}`}>
                      <td>{e.row}</td>
                      <td>{e.field}</td>
                      <td>
                        <code>{e.code}</code>
                      </td>
                      <td>{e.message}</td>
                    </tr>
                  ))}
                </tbody>
              </TableWrap>
              <div className="button-row">
                <Button variant="secondary" onClick={() => downloadBadRows(current)}>
                  Download the bad rows (CSV)
                </Button>
              </div>
            </>
          ) : null}
        </Card>
      ) : null}

      <Card title="History" id="import-history">
        {history.length === 0 ? (
          <p>No imports yet.</p>
        ) : (
          <TableWrap label="Imports">
            <TableHead
              columns={["Uploaded", "From", "Status", num("Rows"), num("Valid"), num("Errors"), num("Duplicates"), num("Processed")]}
              actions
            />
            <tbody>
              {history.map((h) => (
                <tr key={h.id}>
                  <td>{new Date(h.createdAt).toLocaleString()}</td>
                  <td>{h.preset}</td>
                  <td>{h.status}</td>
                  <td className="num">{h.rows}</td>
                  <td className="num">{h.valid}</td>
                  <td className="num">{h.invalid}</td>
                  <td className="num">{h.duplicates}</td>
                  <td className="num">{h.processed}</td>
                  <td>
                    <div className="button-row">
                      {h.invalid > 0 ? (
                        <Button
                          variant="secondary"
                          size="small"
                          onClick={() => downloadBadRows(h)}
                          aria-label={`Bad rows of the import of ${new Date(h.createdAt).toLocaleString()} (CSV)`}
                        >
                          Bad rows
                        </Button>
                      ) : null}
                      {h.status === "DONE" ? (
                        <Button variant="danger-outline" size="small" loading={busy === h.id} onClick={() => undo(h.id)}>
                          Undo
                        </Button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      </Card>
    </>
  );
}
