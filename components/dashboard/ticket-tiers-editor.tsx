"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { currencyDecimals, formatMoney } from "@/lib/money";
import type { CampaignView } from "@/lib/schemas/campaigns";

/** A tier as the campaign API answers it. */
type TierView = CampaignView["ticketTiers"][number];

type Row = { key: string; id?: string; name: string; price: string; capacity: string; fmv: string; description: string; sold: number };

const MAX_TIERS = 20;

/**
 * An event's ticket tiers (1–20): name, price, capacity, fair market value (the receipt's
 * advantage) and description, with the seats each has sold. Saved as a whole (PATCH
 * `ticketTiers`); a tier with sold seats can't be removed or shrunk below them.
 */
export function TicketTiersEditor({
  campaignId,
  currency,
  tiers,
  canEdit,
}: {
  campaignId: string;
  currency: string;
  tiers: TierView[];
  canEdit: boolean;
}) {
  const router = useRouter();
  const decimals = currencyDecimals(currency);
  const toInput = (cents: number) => (cents / 10 ** decimals).toFixed(decimals);
  const toCents = (s: string) => Math.round(Number(s.replace(/[^\d.]/g, "")) * 10 ** decimals);
  const fromTier = (t: TierView): Row => ({
    key: t.id,
    id: t.id,
    name: t.name,
    price: toInput(t.priceCents),
    capacity: String(t.capacity),
    fmv: toInput(t.fairMarketValueCents),
    description: t.description ?? "",
    sold: t.sold,
  });
  const [rows, setRows] = useState<Row[]>(() => tiers.map(fromTier));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});

  const update = (key: string, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = () =>
    setRows((rs) => [
      ...rs,
      { key: `new-${Date.now()}-${rs.length}`, name: "", price: "", capacity: "", fmv: toInput(0), description: "", sold: 0 },
    ]);

  async function save() {
    setBusy(true);
    setMessage(null);
    const body = {
      ticketTiers: rows.map((r) => ({
        ...(r.id ? { id: r.id } : {}),
        name: r.name,
        priceCents: toCents(r.price),
        capacity: Number(r.capacity),
        fairMarketValueCents: toCents(r.fmv || "0"),
        description: r.description || null,
      })),
    };
    const res = await api<{ ticketTiers: TierView[] }>("PATCH", `/api/campaigns/${campaignId}`, body);
    setBusy(false);
    if (res.ok) {
      setRows(res.data.ticketTiers.map(fromTier));
      setErrors({});
      setMessage({ tone: "ok", text: "Ticket tiers saved." });
      router.refresh();
    } else {
      setErrors(res.fieldErrors);
      const first = Object.entries(res.fieldErrors)[0];
      setMessage({ tone: "error", text: first ? `${first[0]}: ${first[1][0]}` : res.error });
    }
  }

  const err = (i: number, field: string) => errors[`ticketTiers.${i}.${field}`]?.[0] ?? null;

  return (
    <section className="card form-section" aria-labelledby="tiers-title">
      <h2 id="tiers-title">Ticket tiers</h2>
      <p className="section-hint">
        Each tier has its own price and capacity and is never oversold. The fair market value (a dinner, say) is what a guest receives:
        receipts state the price minus it as deductible.
      </p>
      <fieldset className="plain stack" disabled={!canEdit || busy} style={{ gap: 16 }}>
        <legend className="sr-only">Ticket tiers</legend>
        {rows.map((r, i) => {
          const id = (f: string) => `tier-${i}-${f}`;
          return (
            <div key={r.key} className="tier-row" role="group" aria-labelledby={id("heading")}>
              <h3 id={id("heading")} className="card-title" style={{ margin: 0 }}>
                {r.name || `Tier ${i + 1}`}{" "}
                <span className="small muted">
                  {r.sold} sold{r.capacity ? ` of ${r.capacity}` : ""}
                </span>
              </h3>
              <div className="form-grid">
                {(
                  [
                    ["name", "Name", "text", r.name, (v: string) => update(r.key, { name: v })],
                    ["priceCents", `Price (${currency.toUpperCase()})`, "decimal", r.price, (v: string) => update(r.key, { price: v })],
                    ["capacity", "Capacity", "numeric", r.capacity, (v: string) => update(r.key, { capacity: v })],
                    [
                      "fairMarketValueCents",
                      `Fair market value (${currency.toUpperCase()})`,
                      "decimal",
                      r.fmv,
                      (v: string) => update(r.key, { fmv: v }),
                    ],
                    ["description", "Description", "text", r.description, (v: string) => update(r.key, { description: v })],
                  ] as const
                ).map(([field, label, mode, value, onChange]) => (
                  <div key={field} className="field">
                    <label htmlFor={id(field)}>{label}</label>
                    <input
                      id={id(field)}
                      className="input"
                      inputMode={mode === "text" ? undefined : mode}
                      value={value}
                      onChange={(e) => onChange(e.target.value)}
                      aria-invalid={err(i, field) ? true : undefined}
                      aria-describedby={err(i, field) ? id(`${field}-error`) : undefined}
                    />
                    {err(i, field) ? (
                      <p id={id(`${field}-error`)} className="field-error">
                        {err(i, field)}
                      </p>
                    ) : null}
                  </div>
                ))}
              </div>
              {rows.length > 1 ? (
                <Button
                  type="button"
                  variant="secondary"
                  size="small"
                  disabled={r.sold > 0}
                  title={r.sold > 0 ? "A tier with sold tickets can't be removed" : undefined}
                  onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                >
                  Remove {r.name || `tier ${i + 1}`}
                </Button>
              ) : null}
            </div>
          );
        })}
        {canEdit ? (
          <div className="form-actions">
            <Button type="button" variant="secondary" onClick={add} disabled={rows.length >= MAX_TIERS}>
              Add a tier
            </Button>
            <Button type="button" loading={busy} onClick={save}>
              Save tiers
            </Button>
          </div>
        ) : null}
        <p role="status" className={message?.tone === "error" ? "field-error" : "small muted"}>
          {message?.text ?? ""}
        </p>
        <p className="small muted">
          Total:{" "}
          {formatMoney(
            rows.reduce((n, r) => n + (Number(r.capacity) || 0) * (toCents(r.price) || 0), 0),
            currency,
          )}{" "}
          if every seat sells.
        </p>
      </fieldset>
    </section>
  );
}
