"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, SubmitRow } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { SelectField, TextField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { TableWrap, TableHead } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { api, firstErrors } from "./api-client";
import { SecretReveal } from "./secret-reveal";
import { ConfirmGroup } from "@/components/ui/confirm-group";

export type ApiKeyItem = {
  id: string;
  name: string;
  role: "ADMIN" | "MEMBER";
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdBy: { id: string; email: string; name: string | null } | null;
};

const ROLE_OPTIONS = [
  { value: "MEMBER", label: "Member: read everything, reports and exports" },
  { value: "ADMIN", label: "Admin: also campaigns, refunds, webhooks, settings" },
];
const ROLE_LABEL: Record<ApiKeyItem["role"], string> = { ADMIN: "Admin", MEMBER: "Member" };

const EXPIRY_OPTIONS = [
  { value: "", label: "Never (until revoked)" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
];

type Revealed = { name: string; key: string };

/** The new key, shown once: a warning, the key with a copy button, and a button to hide it for good. Focus moves here. */
function KeyReveal({ revealed, onDone }: { revealed: Revealed; onDone: () => void }) {
  return (
    <SecretReveal
      title={`Key “${revealed.name}” created: copy it now`}
      id="new-api-key"
      label="New API key"
      value={revealed.key}
      copyLabel="Copy key"
      copiedLabel="Key copied"
      wrap
      onDone={onDone}
    >
      <p>
        You won&apos;t see it again: only a fingerprint of it is kept. Store it in your client&apos;s secret settings and send it as{" "}
        <code>Authorization: Bearer …</code>. Lost it? Revoke it and create another.
      </p>
    </SecretReveal>
  );
}

function CreateKeyForm({ orgSlug, onCreated }: { orgSlug: string; onCreated: (r: Revealed) => void }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [role, setRole] = useState<ApiKeyItem["role"]>("MEMBER");
  const [expiry, setExpiry] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) {
      setErrors({ name: "Give the key a name, such as the system that will use it" });
      document.getElementById("api-key-name")?.focus();
      return;
    }
    setSaving(true);
    const expiresAt = expiry ? new Date(Date.now() + Number(expiry) * 86_400_000).toISOString() : null;
    const res = await api<{ name: string; key: string }>("POST", `/api/orgs/${encodeURIComponent(orgSlug)}/api-keys`, {
      name: name.trim(),
      role,
      expiresAt,
    });
    setSaving(false);
    if (!res.ok) {
      const fields = firstErrors(res.fieldErrors, res.codes);
      setErrors(fields);
      setFormError(Object.keys(fields).length ? null : res.error);
      return;
    }
    setName("");
    setRole("MEMBER");
    setExpiry("");
    setErrors({});
    setFormError(null);
    onCreated({ name: res.data.name, key: res.data.key });
    router.refresh();
  }

  return (
    <section className="card" aria-labelledby="create-key-title">
      <h2 id="create-key-title" className="card-title">
        Create an API key
      </h2>
      <p className="card-sub">For a server or an integration: it acts on this organization only, with the role you choose.</p>
      <form className="form" onSubmit={submit} noValidate>
        {formError ? (
          <Notice tone="error" live>
            <p>{formError}</p>
          </Notice>
        ) : null}
        <div className="form-grid">
          <TextField
            id="api-key-name"
            label="Name"
            required
            maxLength={100}
            autoComplete="off"
            placeholder="CRM sync"
            hint="What uses it, so you recognise it later."
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (errors.name) setErrors(({ name: _n, ...rest }) => rest);
            }}
            error={errors.name}
          />
          <SelectField
            id="api-key-role"
            label="Role"
            value={role}
            onChange={(e) => setRole(e.target.value as ApiKeyItem["role"])}
            options={ROLE_OPTIONS}
            error={errors.role}
          />
          <SelectField
            id="api-key-expiry"
            label="Expires"
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
            options={EXPIRY_OPTIONS}
            error={errors.expiresAt}
          />
        </div>
        <SubmitRow loading={saving}>Create key</SubmitRow>
      </form>
    </section>
  );
}

const isExpired = (k: ApiKeyItem) => k.expiresAt !== null && Date.parse(k.expiresAt) <= Date.now();

/**
 * The organization's API keys (admins): create one (shown once), list them, revoke with a
 * confirmation. Keys act with their role on this organization only.
 */
export function ApiKeysManager({ orgSlug, orgName, keys }: { orgSlug: string; orgName: string; keys: ApiKeyItem[] }) {
  const router = useRouter();
  const toast = useToast();
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  async function revoke(k: ApiKeyItem) {
    setPending(k.id);
    const res = await api("DELETE", `/api/orgs/${encodeURIComponent(orgSlug)}/api-keys/${encodeURIComponent(k.id)}`);
    setPending(null);
    setConfirming(null);
    if (!res.ok && res.status !== 404) {
      toast.show(res.error, "error");
      return;
    }
    toast.show(`Key “${k.name}” revoked`);
    router.refresh();
  }

  return (
    <div className="stack">
      {revealed ? <KeyReveal revealed={revealed} onDone={() => setRevealed(null)} /> : null}
      <CreateKeyForm orgSlug={orgSlug} onCreated={setRevealed} />
      {keys.length === 0 ? (
        <EmptyState title="No API keys yet" icon="⚿">
          Create one above to let a server or an integration use {orgName}&apos;s API without anyone signing in.
        </EmptyState>
      ) : (
        <TableWrap label="API keys" cards>
          <caption className="sr-only">API keys of {orgName}</caption>
          <TableHead columns={["Name", "Key", "Role", "Created by", "Last used", "Expires"]} actions />
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td className="title-cell card-lead" data-label="Name">
                  <strong>{k.name}</strong>
                  <span className="sub">
                    Created <LocalTime iso={k.createdAt} dateOnly />
                  </span>
                </td>
                <td data-label="Key">
                  <code>{k.prefix}…</code>
                </td>
                <td className="card-status" data-label="Role">
                  <Badge tone="role" plain>
                    {ROLE_LABEL[k.role]}
                  </Badge>
                </td>
                <td className="small" data-label="Created by" style={{ overflowWrap: "anywhere" }}>
                  {k.createdBy ? (k.createdBy.name ?? k.createdBy.email) : <span className="muted">A former user</span>}
                </td>
                <td className="small nowrap" data-label="Last used">
                  {k.lastUsedAt ? <LocalTime iso={k.lastUsedAt} /> : <span className="muted">Never</span>}
                </td>
                <td className="small nowrap" data-label="Expires">
                  {k.expiresAt ? (
                    <>
                      <LocalTime iso={k.expiresAt} dateOnly />
                      {isExpired(k) ? (
                        <>
                          {" "}
                          <Badge tone="danger">Expired</Badge>
                        </>
                      ) : null}
                    </>
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td data-label="Actions">
                  {confirming === k.id ? (
                    <ConfirmGroup className="row-actions" label={`Confirm revoking ${k.name}`} onCancel={() => setConfirming(null)}>
                      <Button ref={confirmRef} variant="danger" size="small" loading={pending === k.id} onClick={() => revoke(k)}>
                        Yes, revoke
                      </Button>
                      <Button variant="ghost" size="small" onClick={() => setConfirming(null)}>
                        Cancel
                      </Button>
                    </ConfirmGroup>
                  ) : (
                    <Button variant="danger-outline" size="small" onClick={() => setConfirming(k.id)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </div>
  );
}
