"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { SelectField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { TableWrap, TableHead, num } from "@/components/ui/table";
import { ConfirmGroup } from "@/components/ui/confirm-group";

export type StatementRunRow = {
  id: string;
  year: number;
  resend: boolean;
  queued: number;
  sent: number;
  failed: number;
  pending: number;
  createdAt: string;
};

type Props = {
  orgSlug: string;
  canSend: boolean;
  firstYear: number;
  thisYear: number;
  /** Years with counted gifts and how many donors gave in each. */
  years: { year: number; donors: number }[];
  /** Statement settings still empty (printed on every statement when set). */
  missingSettings: string[];
  initialRuns: StatementRunRow[];
};

const POLL_MS = 3000;
/** The counts of a run, as columns: heading and field. */
const RUN_COUNTS: ReadonlyArray<readonly [string, "queued" | "sent" | "failed" | "pending"]> = [
  ["Queued", "queued"],
  ["Sent", "sent"],
  ["Failed", "failed"],
  ["Waiting", "pending"],
];
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The year picker, "Send statements" (with a confirmation naming the year and how many donors),
 * "Send again" for a year already sent (its own explicit confirmation), and each run's progress:
 * queued, sent, failed and waiting, refreshed every few seconds while emails are still waiting.
 */
export function StatementsPanel({ orgSlug, canSend, firstYear, thisYear, years, missingSettings, initialRuns }: Props) {
  const base = `/api/orgs/${encodeURIComponent(orgSlug)}/statements`;
  const donorsIn = new Map(years.map((y) => [y.year, y.donors]));
  const [year, setYear] = useState(String(thisYear - 1 >= firstYear ? thisYear - 1 : thisYear));
  const [runs, setRuns] = useState(initialRuns);
  const [confirming, setConfirming] = useState<null | "send" | "resend">(null);
  const [working, setWorking] = useState(false);
  const [result, setResult] = useState<{ tone: "success" | "info" | "error"; text: string } | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);

  const chosen = Number(year);
  const donors = donorsIn.get(chosen) ?? 0;
  const sentBefore = runs.filter((r) => r.year === chosen);
  const waiting = runs.some((r) => r.pending > 0);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  // Progress: poll while any email is still waiting to be sent.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(async () => {
      const res = await api<{ data: StatementRunRow[] }>("GET", base);
      if (res.ok) setRuns(res.data.data);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, base]);

  function close() {
    setConfirming(null);
    requestAnimationFrame(() => openButton.current?.focus());
  }

  async function send(resend: boolean) {
    setWorking(true);
    setResult(null);
    const res = await api<{ runId: string | null; queued: number }>("POST", base, { year: chosen, ...(resend ? { resend: true } : {}) });
    setWorking(false);
    setConfirming(null);
    if (!res.ok) {
      setResult({ tone: "error", text: res.error });
      return;
    }
    const queued = res.data.queued;
    setResult(
      queued > 0
        ? { tone: "success", text: `${plural(queued, "statement", "statements")} for ${chosen} queued. Progress is shown below.` }
        : {
            tone: "info",
            text: `Nothing new to send: every donor who gave in ${chosen} already had their statement. Use “Send again” to send it to everyone once more.`,
          },
    );
    const list = await api<{ data: StatementRunRow[] }>("GET", base);
    if (list.ok) setRuns(list.data.data);
  }

  const yearOptions = [];
  for (let y = thisYear; y >= firstYear; y--) {
    const n = donorsIn.get(y);
    yearOptions.push({ value: String(y), label: n ? `${y} (${plural(n, "donor", "donors")})` : String(y) });
  }

  return (
    <div className="stack">
      {missingSettings.length > 0 ? (
        <Notice tone="warn" title="Some statement details are empty">
          <p style={{ margin: 0 }}>
            Statements print your organization’s {missingSettings.join(", ")} when set. Add them on the{" "}
            <Link href={`/dashboard/${orgSlug}/settings`}>Settings</Link> page first.
          </p>
        </Notice>
      ) : null}
      <Card title="Send statements" id="send-statements" description={canSend ? undefined : "Only admins and owners can send statements."}>
        <div className="form">
          <SelectField
            id="statement-year"
            label="Year"
            value={year}
            disabled={!canSend || working}
            hint={
              donors > 0
                ? `${plural(donors, "donor", "donors")} made at least one gift in ${chosen} that was not refunded.`
                : `No donor made a gift in ${chosen} that still counts: there is nothing to send.`
            }
            onChange={(e) => {
              setYear(e.target.value);
              setConfirming(null);
              setResult(null);
            }}
            options={yearOptions}
          />
          {sentBefore.length > 0 ? (
            <p className="small muted" style={{ margin: 0 }}>
              {chosen} statements were sent before (latest <LocalTime iso={sentBefore[0].createdAt} />
              ). Sending again only reaches donors who have not had theirs yet; “Send again” sends everyone a new copy.
            </p>
          ) : null}
          {canSend ? (
            confirming ? (
              <ConfirmGroup className="notice warn" label="Confirm sending statements" onCancel={close}>
                <div className="notice-body">
                  <p className="notice-title">
                    {confirming === "resend"
                      ? `Send every ${chosen} donor their statement again?`
                      : `Email ${chosen} statements to the donors who have not had one?`}
                  </p>
                  <p style={{ margin: 0 }}>
                    {confirming === "resend"
                      ? `Up to ${plural(donors, "donor", "donors")} will get a second email with the PDF attached, including those who already had it.`
                      : `Up to ${plural(donors, "donor", "donors")} will get an email with their PDF statement attached. This cannot be undone.`}
                  </p>
                </div>
                <div className="button-row">
                  <Button ref={confirmButton} loading={working} onClick={() => send(confirming === "resend")}>
                    {confirming === "resend" ? "Yes, send again to everyone" : "Yes, send statements"}
                  </Button>
                  <Button variant="ghost" onClick={close} disabled={working}>
                    Cancel
                  </Button>
                </div>
              </ConfirmGroup>
            ) : (
              <div className="button-row">
                <Button ref={openButton} onClick={() => setConfirming("send")} disabled={donors === 0}>
                  Send statements…
                </Button>
                {sentBefore.length > 0 ? (
                  <Button variant="secondary" onClick={() => setConfirming("resend")} disabled={donors === 0}>
                    Send again…
                  </Button>
                ) : null}
              </div>
            )
          ) : null}
          <div aria-live="polite">
            {result ? (
              <Notice tone={result.tone}>
                <p style={{ margin: 0 }}>{result.text}</p>
              </Notice>
            ) : null}
          </div>
        </div>
      </Card>
      <Card
        title="Progress"
        id="statement-progress"
        description={waiting ? "Updating every few seconds while emails wait to be sent." : undefined}
      >
        {runs.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            No statements sent yet.
          </p>
        ) : (
          <TableWrap label="Statement runs, newest first" cards>
            <TableHead columns={["Year", "Requested", ...RUN_COUNTS.map(([label]) => num(label))]} />
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <td className="card-lead">
                    {r.year}
                    {r.resend ? " (sent again)" : ""}
                  </td>
                  <td data-label="Requested">
                    <LocalTime iso={r.createdAt} />
                  </td>
                  {RUN_COUNTS.map(([label, key]) => (
                    <td key={key} data-label={label} className="num">
                      {r[key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      </Card>
    </div>
  );
}
