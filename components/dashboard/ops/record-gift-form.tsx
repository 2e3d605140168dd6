"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { api, firstErrors } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { currencySymbol, formatMoney, parseMoney } from "@/lib/money";
import { OFFLINE_METHOD_OPTIONS } from "./labels";
import styles from "./ops.module.css";

type DonorHit = { id: string; email: string; firstName: string | null; lastName: string | null; totalGivenCents: number };
type NewDonor = { firstName: string; lastName: string; email: string };
type Recorded = { id: string; amount: number; receiptNumber: string | null; donorLabel: string };
type FieldKey = "amount" | "receivedAt" | "method" | "reference" | "campaignId" | "donor" | "firstName" | "lastName" | "email";

const today = () => new Date().toISOString().slice(0, 10);
const hitLabel = (d: Pick<DonorHit, "firstName" | "lastName" | "email">) =>
  [d.firstName, d.lastName].filter(Boolean).join(" ") || d.email || "Unnamed donor";

/** The API's field names (`donor.firstName`, `receivedAt`) → this form's inputs. */
function inputFor(field: string): FieldKey | null {
  const [head, sub] = field.split(".");
  if (head === "donor") return sub === "firstName" || sub === "lastName" || sub === "email" ? sub : "donor";
  return ["amount", "receivedAt", "method", "reference", "campaignId"].includes(head) ? (head as FieldKey) : null;
}

/** What was typed into the donor search, as a new donor's first fields: an email, or a first and last name. */
function newDonorFrom(typed: string): NewDonor {
  const t = typed.trim();
  if (t.includes("@")) return { firstName: "", lastName: "", email: t };
  const [first, ...rest] = t.split(/\s+/);
  return { firstName: first ?? "", lastName: rest.join(" "), email: "" };
}

/**
 * "Record a gift" (ADMIN): a cheque, cash, a transfer... POST /api/orgs/:idOrSlug/offline-gifts.
 * Built for the keyboard, one gift after another: amount, date, method, reference, campaign, then
 * the donor found as you type (arrows and Enter pick one; the last choice creates a new donor
 * inline), and Enter records it. The date, method and campaign stay for the next gift, and the
 * focus goes back to the amount.
 */
export function RecordGiftForm({
  orgSlug,
  currency,
  campaigns,
}: {
  orgSlug: string;
  currency: string;
  campaigns: { value: string; label: string }[];
}) {
  const toast = useToast();
  const [amount, setAmount] = useState("");
  const [receivedAt, setReceivedAt] = useState(today);
  const [method, setMethod] = useState("CHEQUE");
  const [reference, setReference] = useState("");
  const [campaignId, setCampaignId] = useState(campaigns[0]?.value ?? "");
  const [sendReceipt, setSendReceipt] = useState(true);
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<DonorHit[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [donor, setDonor] = useState<DonorHit | null>(null);
  const [newDonor, setNewDonor] = useState<NewDonor | null>(null);
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [recorded, setRecorded] = useState<Recorded | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const searchSeq = useRef(0);
  // The field to focus once the form is enabled again (a disabled input takes no focus): set
  // after a submit, focused after the next render that commits with the fields enabled.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (busy || !focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const base = `/dashboard/${orgSlug}`;

  // The page is for typing gifts in: the amount takes the focus when it opens.
  useEffect(() => {
    const frame = requestAnimationFrame(() => amountRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);

  // The donor search: the donors list, newest query wins.
  useEffect(() => {
    const q = query.trim();
    // No list then (see `options`): the last hits stay unseen until the next search.
    if (donor || newDonor || q.length < 2) return;
    const seq = ++searchSeq.current;
    const timer = setTimeout(async () => {
      const res = await api<{ data: DonorHit[] }>(
        "GET",
        `/api/orgs/${encodeURIComponent(orgSlug)}/donors?limit=6&q=${encodeURIComponent(q)}`,
      );
      if (seq !== searchSeq.current) return;
      setHits(res.ok ? res.data.data : []);
      setActive(0);
      setOpen(true);
    }, 150);
    return () => clearTimeout(timer);
  }, [query, donor, newDonor, orgSlug]);

  const options = query.trim().length >= 2 && !donor && !newDonor ? hits.length + 1 : 0;
  const listOpen = open && options > 0;
  const optionId = (i: number) => `rg-donor-option-${i}`;

  function choose(i: number) {
    if (i < hits.length) {
      setDonor(hits[i]);
      setQuery(hitLabel(hits[i]));
    } else {
      const fields = newDonorFrom(query);
      setNewDonor(fields);
      requestAnimationFrame(() =>
        document.getElementById(fields.firstName ? (fields.lastName ? "rg-email" : "rg-lastName") : "rg-firstName")?.focus(),
      );
    }
    setOpen(false);
    setErrors((e) => ({ ...e, donor: undefined }));
  }

  function onSearchKey(e: KeyboardEvent<HTMLInputElement>) {
    if (!listOpen) return;
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((a) => (a + 1) % options);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => (a - 1 + options) % options);
    } else if (e.key === "Enter") {
      e.preventDefault();
      choose(active);
    } else if (e.key === "Escape") {
      e.preventDefault();
      setOpen(false);
    }
  }

  function changeDonor() {
    setDonor(null);
    setNewDonor(null);
    setQuery("");
    requestAnimationFrame(() => document.getElementById("rg-donor")?.focus());
  }

  function focusFirst(found: Partial<Record<FieldKey, string>>) {
    const order: FieldKey[] = ["amount", "receivedAt", "method", "reference", "campaignId", "donor", "firstName", "lastName", "email"];
    const first = order.find((k) => found[k]);
    if (first) focusNext.current = `rg-${first}`;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setFormError(null);
    const found: Partial<Record<FieldKey, string>> = {};
    const parsed = parseMoney(amount, currency);
    if (!parsed.ok) found.amount = parsed.message;
    else if (parsed.minor === null || parsed.minor <= 0) found.amount = "Enter the amount received";
    if (!donor && !newDonor) found.donor = "Find the donor, or choose “New donor” to add one";
    if (newDonor && !newDonor.firstName.trim()) found.firstName = "Required";
    if (newDonor && !newDonor.lastName.trim()) found.lastName = "Required";
    if (Object.keys(found).length > 0 || !parsed.ok || parsed.minor === null) {
      setErrors(found);
      focusFirst(found);
      return;
    }
    const donorBody = donor
      ? { id: donor.id }
      : { firstName: newDonor!.firstName.trim(), lastName: newDonor!.lastName.trim(), email: newDonor!.email.trim() || null };
    setBusy(true);
    const res = await api<{ id: string; amount: number; receiptNumber: string | null }>(
      "POST",
      `/api/orgs/${encodeURIComponent(orgSlug)}/offline-gifts`,
      {
        campaignId,
        amount: parsed.minor,
        receivedAt,
        method,
        reference: reference.trim() || null,
        donor: donorBody,
        sendReceipt,
      },
    );
    setBusy(false);
    if (!res.ok) {
      const mapped: Partial<Record<FieldKey, string>> = {};
      for (const [field, message] of Object.entries(firstErrors(res.fieldErrors, res.codes))) {
        const key = inputFor(field);
        if (key && !mapped[key]) mapped[key] = message;
      }
      setErrors(mapped);
      if (Object.keys(mapped).length > 0) focusFirst(mapped);
      else setFormError(res.error);
      return;
    }
    const donorLabel = donor ? hitLabel(donor) : hitLabel(newDonor!);
    setRecorded({ id: res.data.id, amount: res.data.amount, receiptNumber: res.data.receiptNumber, donorLabel });
    toast.show(`Gift recorded: ${formatMoney(res.data.amount, currency)} from ${donorLabel}`);
    // Ready for the next one: date, method and campaign stay.
    setErrors({});
    setAmount("");
    setReference("");
    setDonor(null);
    setNewDonor(null);
    setQuery("");
    focusNext.current = "rg-amount";
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="record-gift-title">
      {recorded ? (
        <Notice tone="success" title="Gift recorded" live>
          <p>
            {formatMoney(recorded.amount, currency)} from {recorded.donorLabel}
            {recorded.receiptNumber ? `, receipt ${recorded.receiptNumber}` : ""}.{" "}
            {/* The darker brand colour: the link sits on the success notice's tinted background. */}
            <Link href={`${base}/donations/${encodeURIComponent(recorded.id)}`} style={{ color: "var(--brand-strong)" }}>
              View the gift
            </Link>
          </p>
        </Notice>
      ) : null}
      {formError ? (
        <Notice tone="error" live>
          {formError}
        </Notice>
      ) : null}
      <fieldset className="plain form" disabled={busy}>
        <legend className="sr-only">The gift</legend>
        <div className="form-grid">
          <TextField
            ref={amountRef}
            id="rg-amount"
            label="Amount"
            required
            inputMode="decimal"
            autoComplete="off"
            prefix={currencySymbol(currency)}
            value={amount}
            error={errors.amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <TextField
            id="rg-receivedAt"
            label="Date received"
            type="date"
            required
            max={today()}
            value={receivedAt}
            error={errors.receivedAt}
            onChange={(e) => setReceivedAt(e.target.value)}
          />
          <SelectField
            id="rg-method"
            label="Method"
            value={method}
            options={OFFLINE_METHOD_OPTIONS}
            error={errors.method}
            onChange={(e) => setMethod(e.target.value)}
          />
          <TextField
            id="rg-reference"
            label="Reference"
            optional
            hint="Cheque number, transfer reference, grant ID…"
            autoComplete="off"
            maxLength={100}
            value={reference}
            error={errors.reference}
            onChange={(e) => setReference(e.target.value)}
          />
          <SelectField
            id="rg-campaignId"
            label="Campaign"
            value={campaignId}
            options={campaigns}
            error={errors.campaignId}
            onChange={(e) => setCampaignId(e.target.value)}
          />
        </div>
      </fieldset>
      <fieldset className="plain form" disabled={busy}>
        <legend>Donor</legend>
        <div className={`field ${styles.combo}`}>
          <label htmlFor="rg-donor">Find a donor</label>
          <input
            id="rg-donor"
            className="input"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={listOpen}
            aria-controls="rg-donor-list"
            aria-activedescendant={listOpen ? optionId(active) : undefined}
            aria-describedby={["rg-donor-hint", errors.donor ? "rg-donor-error" : null].filter(Boolean).join(" ")}
            aria-invalid={errors.donor ? true : undefined}
            autoComplete="off"
            value={query}
            readOnly={Boolean(donor || newDonor)}
            onChange={(e) => {
              setQuery(e.target.value);
              setErrors((x) => ({ ...x, donor: undefined }));
            }}
            onKeyDown={onSearchKey}
            onBlur={() => setTimeout(() => setOpen(false), 150)}
          />
          <p className="hint" id="rg-donor-hint">
            {donor || newDonor ? "Chosen." : "Name or email; ↓ and Enter to pick, or pick “New donor” to add one."}
          </p>
          <ul id="rg-donor-list" role="listbox" aria-label="Donors found" className={styles.comboList} hidden={!listOpen}>
            {hits.map((h, i) => (
              <li
                key={h.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={styles.comboOption}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(i);
                }}
              >
                <strong>{hitLabel(h)}</strong> <span className="muted">{h.email}</span>
              </li>
            ))}
            <li
              id={optionId(hits.length)}
              role="option"
              aria-selected={active === hits.length}
              className={styles.comboOption}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(hits.length);
              }}
            >
              New donor: <strong>{query.trim()}</strong>
            </li>
          </ul>
          {errors.donor ? (
            <p className="error-text" id="rg-donor-error">
              {errors.donor}
            </p>
          ) : null}
          {donor || newDonor ? (
            <div>
              <Button variant="ghost" size="small" onClick={changeDonor}>
                Change donor
              </Button>
            </div>
          ) : null}
        </div>
        {newDonor ? (
          <div className="form-grid">
            <TextField
              id="rg-firstName"
              label="First name"
              required
              autoComplete="off"
              value={newDonor.firstName}
              error={errors.firstName}
              onChange={(e) => setNewDonor({ ...newDonor, firstName: e.target.value })}
            />
            <TextField
              id="rg-lastName"
              label="Last name"
              required
              autoComplete="off"
              value={newDonor.lastName}
              error={errors.lastName}
              onChange={(e) => setNewDonor({ ...newDonor, lastName: e.target.value })}
            />
            <TextField
              id="rg-email"
              label="Email"
              type="email"
              optional
              hint="An existing donor with this email gets the gift. Without one, a new donor is created (no receipt email)."
              autoComplete="off"
              value={newDonor.email}
              error={errors.email}
              onChange={(e) => setNewDonor({ ...newDonor, email: e.target.value })}
            />
          </div>
        ) : null}
        <CheckboxField
          id="rg-sendReceipt"
          label="Email the receipt to the donor"
          hint="When the donor has an email."
          checked={sendReceipt}
          onChange={(e) => setSendReceipt(e.target.checked)}
        />
      </fieldset>
      <div className="form-actions">
        <Button type="submit" disabled={busy}>
          {busy ? "Recording…" : "Record gift"}
        </Button>
      </div>
    </form>
  );
}
