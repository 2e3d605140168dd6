"use client";

import jsQR from "jsqr";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";

type Ticket = {
  id: string;
  code: string;
  tierName: string;
  attendeeName: string;
  buyerName: string;
  status: "VALID" | "VOID";
  voidReason: string | null;
  checkedInAt: string | null;
};
type Count = { tierId: string; tierName: string; sold: number; checkedIn: number };
type Answer = { tone: "ok" | "warn" | "bad"; title: string; detail?: string };

const POLL_MS = 5_000;
/** The same code seen again by the camera within this time is the same scan, not a second one. */
const SAME_SCAN_MS = 4_000;

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/**
 * The check-in desk, built for a phone at the door: the camera decodes QR tickets (jsQR over
 * frames drawn from getUserMedia into a canvas) and posts each code once; the answer is big and
 * plain ("Checked in: Ada Lovelace, VIP", "Already checked in at 19:04", "Not valid: refunded").
 * Guests can be found by attendee or buyer name and checked in by hand. The per-tier counts poll
 * the server, so several staff scanning at once all see the same numbers; the server admits each
 * ticket once whoever scans it.
 */
export function CheckInDesk({ campaignId }: { campaignId: string }) {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [counts, setCounts] = useState<Count[]>([]);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<Ticket[] | null>(null);
  const [scanning, setScanning] = useState(false);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ code: string; at: number } | null>(null);
  const busy = useRef(false);

  const refreshCounts = useCallback(async () => {
    const res = await api<{ counts: Count[] }>("GET", `/api/campaigns/${campaignId}/tickets?countsOnly=true`);
    if (res.ok) setCounts(res.data.counts);
  }, [campaignId]);

  useEffect(() => {
    // The first read right away (in a timer callback, not the effect body), then every POLL_MS.
    const first = setTimeout(() => void refreshCounts(), 0);
    const timer = setInterval(() => void refreshCounts(), POLL_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [refreshCounts]);

  const checkIn = useCallback(
    async (code: string) => {
      const res = await api<{ ticket: Ticket }>("POST", `/api/campaigns/${campaignId}/check-ins`, { code });
      if (res.ok) {
        setAnswer({ tone: "ok", title: `Checked in: ${res.data.ticket.attendeeName}, ${res.data.ticket.tierName}` });
      } else if (res.code === "already_checked_in") {
        const at = /at (\S+)$/.exec(res.error)?.[1];
        setAnswer({ tone: "warn", title: at ? `Already checked in at ${time(at)}` : "Already checked in" });
      } else if (res.code === "ticket_not_valid") {
        setAnswer({ tone: "bad", title: res.error });
      } else if (res.status === 404) {
        setAnswer({ tone: "bad", title: "Not a ticket for this event" });
      } else {
        setAnswer({ tone: "bad", title: "Could not check in", detail: res.error });
      }
      void refreshCounts();
      if (results) void search(query);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- search reads the latest query when it runs
    [campaignId, refreshCounts, results, query],
  );

  async function search(q: string) {
    if (!q.trim()) {
      setResults(null);
      return;
    }
    const res = await api<{ data: Ticket[] }>("GET", `/api/campaigns/${campaignId}/tickets?q=${encodeURIComponent(q.trim())}`);
    if (res.ok) setResults(res.data.data);
  }

  // The camera: frames drawn into a canvas and decoded by jsQR, each new code posted once.
  useEffect(() => {
    if (!scanning) return;
    let stream: MediaStream | null = null;
    let frame = 0;
    let stopped = false;
    const tick = async () => {
      if (stopped) return;
      const video = videoRef.current;
      const canvas = canvasRef.current;
      if (video && canvas && video.readyState >= 2 && video.videoWidth > 0) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        const ctx = canvas.getContext("2d", { willReadFrequently: true });
        if (ctx) {
          ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
          const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
          const found = jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" });
          const code = found?.data.trim();
          const now = Date.now();
          if (code && !busy.current && !(last.current && last.current.code === code && now - last.current.at < SAME_SCAN_MS)) {
            last.current = { code, at: now };
            busy.current = true;
            await checkIn(code);
            busy.current = false;
          }
        }
      }
      frame = requestAnimationFrame(() => void tick());
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(async (s) => {
        stream = s;
        if (stopped || !videoRef.current) return;
        videoRef.current.srcObject = s;
        await videoRef.current.play().catch(() => {});
        void tick();
      })
      .catch(() => {
        setCameraError("The camera could not be started: allow camera access, or find guests by name below.");
        setScanning(false);
      });
    return () => {
      stopped = true;
      cancelAnimationFrame(frame);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [scanning, checkIn]);

  const toneStyle: Record<Answer["tone"], React.CSSProperties> = {
    ok: { background: "#e3f5e9", borderColor: "#2e7d4f", color: "#14532d" },
    warn: { background: "#fff4dc", borderColor: "#b7791f", color: "#6b4405" },
    bad: { background: "#fde8e8", borderColor: "#b42318", color: "#7a1010" },
  };

  return (
    <div className="stack check-in-desk" style={{ gap: 16, maxWidth: 640 }}>
      <div
        role="status"
        aria-live="assertive"
        className="card"
        data-testid="check-in-answer"
        style={{
          border: "3px solid",
          fontSize: "1.6rem",
          fontWeight: 700,
          textAlign: "center",
          padding: "20px 12px",
          minHeight: 80,
          ...(answer ? toneStyle[answer.tone] : { borderColor: "#d5ddd8" }),
        }}
      >
        {answer ? answer.title : "Ready to scan"}
        {answer?.detail ? <div style={{ fontSize: "1rem", fontWeight: 400 }}>{answer.detail}</div> : null}
      </div>

      <section className="card stack" aria-labelledby="scan-title" style={{ gap: 10 }}>
        <h2 id="scan-title" className="card-title" style={{ margin: 0 }}>
          Scan
        </h2>
        <Button type="button" size="large" block onClick={() => setScanning((s) => !s)}>
          {scanning ? "Stop the camera" : "Start the camera"}
        </Button>
        {cameraError ? <p className="field-error">{cameraError}</p> : null}
        <video
          ref={videoRef}
          muted
          playsInline
          aria-label="Camera"
          style={{ width: "100%", borderRadius: 8, display: scanning ? "block" : "none", background: "#000" }}
        />
        <canvas ref={canvasRef} hidden />
      </section>

      <section className="card stack" aria-labelledby="find-title" style={{ gap: 10 }}>
        <h2 id="find-title" className="card-title" style={{ margin: 0 }}>
          Find a guest
        </h2>
        <form
          className="stack"
          style={{ gap: 8 }}
          onSubmit={(e) => {
            e.preventDefault();
            void search(query);
          }}
        >
          <label htmlFor="guest-search">Attendee or buyer name, email or ticket code</label>
          <input
            id="guest-search"
            className="input"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            autoComplete="off"
            style={{ fontSize: "1.1rem" }}
          />
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </form>
        {results !== null ? (
          results.length === 0 ? (
            <p className="muted">No guest matches.</p>
          ) : (
            <ul className="plain-list stack" style={{ gap: 8 }}>
              {results.map((t) => (
                <li key={t.id} className="card" style={{ padding: 12, display: "grid", gap: 6 }}>
                  <strong style={{ fontSize: "1.1rem" }}>{t.attendeeName}</strong>
                  <span className="small muted">
                    {t.tierName} · bought by {t.buyerName || "—"}
                  </span>
                  {t.status === "VOID" ? (
                    <span className="field-error">Not valid: {t.voidReason ?? "void"}</span>
                  ) : t.checkedInAt ? (
                    <span>Checked in at {time(t.checkedInAt)}</span>
                  ) : (
                    <Button type="button" onClick={() => void checkIn(t.code)}>
                      Check in {t.attendeeName}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )
        ) : null}
      </section>

      <section className="card stack" aria-labelledby="counts-title" style={{ gap: 8 }}>
        <h2 id="counts-title" className="card-title" style={{ margin: 0 }}>
          Arrived
        </h2>
        {counts.length === 0 ? (
          <p className="muted">No tickets sold yet.</p>
        ) : (
          <dl className="kv" data-testid="check-in-counts">
            {counts.map((c) => (
              <div key={c.tierId} style={{ display: "contents" }}>
                <dt>{c.tierName}</dt>
                <dd>
                  {c.checkedIn} of {c.sold}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
    </div>
  );
}
