"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, firstErrors } from "@/components/dashboard/api-client";
import { Badge } from "@/components/ui/badge";
import { Button, SubmitRow } from "@/components/ui/button";
import { FieldError, TextField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { WEBHOOK_EVENT_GROUPS } from "./labels";
import styles from "./ops.module.css";
import { SecretReveal } from "../secret-reveal";
import { ConfirmGroup } from "@/components/ui/confirm-group";

/** An endpoint as GET /api/orgs/:idOrSlug/webhook-endpoints lists it, plus its latest delivery. */
export type EndpointView = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  lastDelivery: { at: string; success: boolean; statusCode: number | null } | null;
};

type Revealed = { endpointId: string; url: string; secret: string; rotated: boolean };

/**
 * The signing secret, shown once (after creating an endpoint or rotating its secret): a warning,
 * the value with a copy button, and a button to hide it for good. Focus moves here so nobody
 * misses it.
 */
function SecretShownOnce({ revealed, onDone }: { revealed: Revealed; onDone: () => void }) {
  return (
    <SecretReveal
      title={revealed.rotated ? "New signing secret: copy it now" : "Endpoint added: copy its signing secret now"}
      id="webhook-secret"
      label="Signing secret"
      value={revealed.secret}
      copyLabel="Copy secret"
      copiedLabel="Secret copied"
      onDone={onDone}
    >
      <p>
        This is the only time it is shown. Your receiver uses it to check the <code>webhook-signature</code> header of every delivery to{" "}
        <strong style={{ overflowWrap: "anywhere" }}>{revealed.url}</strong>.
        {revealed.rotated ? " The old secret stopped working just now." : ""}
      </p>
    </SecretReveal>
  );
}

function CreateEndpointForm({ orgSlug, onCreated }: { orgSlug: string; onCreated: (r: Revealed) => void }) {
  const router = useRouter();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [types, setTypes] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  function checkUrl(value: string): string | null {
    const v = value.trim();
    if (!v) return "Enter the URL that should receive events";
    try {
      const u = new URL(v);
      if (u.protocol !== "https:" && u.protocol !== "http:") return "Must be an https URL";
    } catch {
      return "Enter a full URL, like https://example.org/webhooks/goodfund";
    }
    return null;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const urlError = checkUrl(url);
    if (urlError) {
      setErrors({ url: urlError });
      document.getElementById("webhook-url")?.focus();
      return;
    }
    setSaving(true);
    const res = await api<{ id: string; url: string; secret: string }>(
      "POST",
      `/api/orgs/${encodeURIComponent(orgSlug)}/webhook-endpoints`,
      {
        url: url.trim(),
        description: description.trim() || null,
        eventTypes: types,
      },
    );
    setSaving(false);
    if (!res.ok) {
      const fields = firstErrors(res.fieldErrors);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFormError([res.error, ...res.formErrors].join(" "));
      const first = fields.url ? "webhook-url" : fields.description ? "webhook-description" : null;
      if (first) document.getElementById(first)?.focus();
      return;
    }
    setUrl("");
    setDescription("");
    setTypes([]);
    setErrors({});
    onCreated({ endpointId: res.data.id, url: res.data.url, secret: res.data.secret, rotated: false });
    router.refresh();
  }

  const toggle = (t: string, on: boolean) => setTypes((cur) => (on ? [...cur, t] : cur.filter((x) => x !== t)));

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="add-endpoint-title">
      <div className="form-grid">
        <TextField
          id="webhook-url"
          label="Endpoint URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.org/webhooks/goodfund"
          required
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            if (errors.url) setErrors((er) => ({ ...er, url: checkUrl(e.target.value) ?? "" }));
          }}
          onBlur={() => url && setErrors((er) => ({ ...er, url: checkUrl(url) ?? "" }))}
          error={errors.url || null}
          hint="Must be https and reachable from the internet."
        />
        <TextField
          id="webhook-description"
          label="Description"
          optional
          maxLength={500}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description || null}
          placeholder="CRM sync"
        />
      </div>
      <fieldset className="plain" aria-describedby="webhook-events-hint">
        <legend className="label" style={{ fontWeight: 600, fontSize: "0.9rem", color: "var(--ink-2)", marginBottom: 4 }}>
          Events to send
        </legend>
        <p className="hint" id="webhook-events-hint" style={{ marginBottom: 10 }}>
          {types.length === 0 ? "None ticked: every event, including ones added later." : `${types.length} selected.`}
        </p>
        <div className={styles.checkGroups}>
          {WEBHOOK_EVENT_GROUPS.map((g) => (
            <fieldset key={g.label}>
              <legend>{g.label}</legend>
              {g.types.map((t) => (
                <label key={t.value} className={styles.checkRow}>
                  <input type="checkbox" checked={types.includes(t.value)} onChange={(e) => toggle(t.value, e.target.checked)} />
                  <span className={styles.checkText}>
                    {t.label}
                    <code>{t.value}</code>
                  </span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
        <FieldError id="webhook-events" error={errors.eventTypes || null} />
      </fieldset>
      {formError ? (
        <Notice tone="error" live>
          <p>{formError}</p>
        </Notice>
      ) : null}
      <SubmitRow loading={saving}>Add endpoint</SubmitRow>
    </form>
  );
}

type Pending = { id: string; action: "test" | "toggle" | "rotate" | "delete" } | null;

function EndpointItem({
  endpoint: e,
  orgSlug,
  pending,
  setPending,
  onRotated,
}: {
  endpoint: EndpointView;
  orgSlug: string;
  pending: Pending;
  setPending: (p: Pending) => void;
  onRotated: (r: Revealed) => void;
}) {
  const router = useRouter();
  const toast = useToast();
  const [confirm, setConfirm] = useState<"rotate" | "delete" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<Record<string, HTMLButtonElement | null>>({});
  const path = `/api/orgs/${encodeURIComponent(orgSlug)}/webhook-endpoints/${encodeURIComponent(e.id)}`;
  const busy = pending?.id === e.id ? pending.action : null;

  useEffect(() => {
    if (confirm) confirmButton.current?.focus();
  }, [confirm]);

  function closeConfirm() {
    const which = confirm;
    setConfirm(null);
    if (which) requestAnimationFrame(() => opener.current[which]?.focus());
  }

  async function run(action: NonNullable<Pending>["action"]) {
    setError(null);
    setPending({ id: e.id, action });
    const res =
      action === "test"
        ? await api("POST", `${path}/test`)
        : action === "toggle"
          ? await api("PATCH", path, { enabled: !e.enabled })
          : action === "rotate"
            ? await api<{ secret: string; url: string }>("PATCH", path, { rotateSecret: true })
            : await api("DELETE", path);
    setPending(null);
    setConfirm(null);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    if (action === "test") toast.show("Test event queued: it shows in the delivery log within a few seconds");
    if (action === "toggle") toast.show(e.enabled ? "Endpoint disabled: no events are sent to it" : "Endpoint enabled");
    if (action === "rotate") {
      const data = res.data as { secret: string; url: string };
      onRotated({ endpointId: e.id, url: data.url, secret: data.secret, rotated: true });
    }
    if (action === "delete") toast.show("Endpoint deleted");
    router.refresh();
  }

  const eventsText = e.eventTypes.length === 0 ? "All events" : `${e.eventTypes.length} event type${e.eventTypes.length === 1 ? "" : "s"}`;

  return (
    <li className="card">
      <div className={styles.endpointHead}>
        <p className={styles.endpointUrl}>{e.url}</p>
        <div className="button-row">
          {e.enabled ? (
            e.failingSince ? (
              <Badge tone="pending">Failing</Badge>
            ) : (
              <Badge tone="ok">Enabled</Badge>
            )
          ) : (
            <Badge tone="draft">Disabled</Badge>
          )}
        </div>
      </div>
      <div className={styles.endpointMeta}>
        {e.description ? <span style={{ color: "var(--ink)" }}>{e.description}</span> : null}
        <span>{eventsText}</span>
        <span>
          Added <LocalTime iso={e.createdAt} dateOnly />
        </span>
        {e.lastDelivery ? (
          <span>
            Last delivery {e.lastDelivery.success ? "succeeded" : "failed"}
            {e.lastDelivery.statusCode !== null ? ` (${e.lastDelivery.statusCode})` : ""} <LocalTime iso={e.lastDelivery.at} />
          </span>
        ) : (
          <span>No deliveries yet</span>
        )}
        {!e.enabled && e.disabledReason ? <span>{e.disabledReason}</span> : null}
        {e.enabled && e.failingSince ? (
          <span>
            Failing since <LocalTime iso={e.failingSince} />; five days of failures disable it
          </span>
        ) : null}
      </div>
      {e.eventTypes.length > 0 ? (
        <div className={styles.chips} style={{ marginBottom: 10 }} aria-label="Event types">
          {e.eventTypes.map((t) => (
            <code key={t} className="small">
              {t}
            </code>
          ))}
        </div>
      ) : null}
      {confirm ? (
        <ConfirmGroup
          className={styles.confirm}
          label={confirm === "delete" ? "Confirm deleting the endpoint" : "Confirm rotating the secret"}
          onCancel={closeConfirm}
        >
          <p>
            {confirm === "delete"
              ? "Delete this endpoint and its delivery log? Events stop going to it at once."
              : "Rotate the signing secret? The current one stops working at once, so update your receiver right after."}
          </p>
          <div className="row-actions">
            <Button ref={confirmButton} size="small" variant="danger" loading={busy === confirm} onClick={() => run(confirm)}>
              {confirm === "delete" ? "Yes, delete" : "Yes, rotate"}
            </Button>
            <Button size="small" variant="ghost" onClick={closeConfirm} disabled={busy !== null}>
              Cancel
            </Button>
          </div>
        </ConfirmGroup>
      ) : (
        <div className="button-row">
          <Link className="button secondary small" href={`/dashboard/${orgSlug}/webhooks/${encodeURIComponent(e.id)}`}>
            Delivery log<span className="sr-only"> of {e.url}</span>
          </Link>
          <Button
            size="small"
            variant="secondary"
            loading={busy === "test"}
            disabled={!e.enabled || (busy !== null && busy !== "test")}
            onClick={() => run("test")}
          >
            Send test event
          </Button>
          <Button
            size="small"
            variant="secondary"
            loading={busy === "toggle"}
            disabled={busy !== null && busy !== "toggle"}
            onClick={() => run("toggle")}
          >
            {e.enabled ? "Disable" : "Enable"}
          </Button>
          <Button
            ref={(el) => {
              opener.current.rotate = el;
            }}
            size="small"
            variant="ghost"
            disabled={busy !== null}
            onClick={() => setConfirm("rotate")}
          >
            Rotate secret
          </Button>
          <Button
            ref={(el) => {
              opener.current.delete = el;
            }}
            size="small"
            variant="danger-outline"
            disabled={busy !== null}
            onClick={() => setConfirm("delete")}
          >
            Delete<span className="sr-only"> endpoint {e.url}</span>
          </Button>
        </div>
      )}
      {error ? (
        <p className="error-text" role="alert" style={{ marginTop: 8 }}>
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** The webhooks page's interactive part (ADMIN): add an endpoint, and manage each one. */
export function WebhookEndpoints({ orgSlug, endpoints }: { orgSlug: string; endpoints: EndpointView[] }) {
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const addTitle = useRef<HTMLHeadingElement>(null);

  return (
    <div className="stack">
      {revealed ? <SecretShownOnce revealed={revealed} onDone={() => setRevealed(null)} /> : null}
      <section aria-labelledby="endpoints-title">
        <div className={styles.sectionTitle}>
          <h2 id="endpoints-title">Endpoints</h2>
          {endpoints.length > 0 ? <span className="small muted">{endpoints.length} in total</span> : null}
        </div>
        {endpoints.length === 0 ? (
          <div className="empty">
            <div className="empty-icon" aria-hidden="true">
              ⇄
            </div>
            <h3 style={{ margin: "0 0 6px", fontSize: "1.1rem" }}>No endpoints yet</h3>
            <p>Add a URL below and Goodfund will POST signed events to it whenever a donation, plan, campaign or payout changes.</p>
            <div className="button-row" style={{ justifyContent: "center" }}>
              <Button
                variant="secondary"
                onClick={() => {
                  document.getElementById("webhook-url")?.focus();
                  addTitle.current?.scrollIntoView({ block: "start" });
                }}
              >
                Add your first endpoint
              </Button>
            </div>
          </div>
        ) : (
          <ul className={styles.endpointList}>
            {endpoints.map((e) => (
              <EndpointItem key={e.id} endpoint={e} orgSlug={orgSlug} pending={pending} setPending={setPending} onRotated={setRevealed} />
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="add-endpoint-title">
        <h2 id="add-endpoint-title" ref={addTitle} className="card-title">
          Add an endpoint
        </h2>
        <p className="card-sub">Deliveries are signed with the Standard Webhooks scheme and retried with backoff for up to three days.</p>
        <CreateEndpointForm orgSlug={orgSlug} onCreated={setRevealed} />
      </section>
    </div>
  );
}
