"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, SubmitRow } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { api, firstErrors } from "./api-client";

export type CustomDomainState = {
  customDomain: string | null;
  customDomainStatus: "PENDING" | "VERIFIED" | null;
  customDomainVerification: { type: "TXT"; name: string; value: string } | null;
};

/**
 * The settings page's custom domain: set or change it (PATCH /api/orgs/:slug, ADMIN), the DNS TXT
 * record that proves the organization controls it, and a Verify button
 * (POST …/custom-domain/verify) that says what is wrong when the record isn't there yet. The
 * domain serves nothing until it is verified. Members see the state, read-only.
 */
export function CustomDomainPanel({ orgSlug, canEdit, initial }: { orgSlug: string; canEdit: boolean; initial: CustomDomainState }) {
  const router = useRouter();
  const toast = useToast();
  const [state, setState] = useState<CustomDomainState>(initial);
  const [domain, setDomain] = useState(initial.customDomain ?? "");
  const [domainError, setDomainError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const base = `/api/orgs/${encodeURIComponent(orgSlug)}`;
  const unchanged = domain.trim().toLowerCase() === (state.customDomain ?? "");

  async function save(e: FormEvent) {
    e.preventDefault();
    if (unchanged) return;
    setSaving(true);
    setDomainError(null);
    setProblem(null);
    const value = domain.trim() === "" ? null : domain.trim();
    const res = await api<CustomDomainState>("PATCH", base, { customDomain: value });
    setSaving(false);
    if (res.ok) {
      setState(res.data);
      setDomain(res.data.customDomain ?? "");
      toast.show(value ? "Custom domain saved: add the DNS record, then verify it" : "Custom domain removed");
      router.refresh();
      return;
    }
    const fe = firstErrors(res.fieldErrors, res.codes);
    setDomainError(fe.customDomain ?? res.error);
    document.getElementById("cd-domain")?.focus();
  }

  async function verify() {
    setVerifying(true);
    setProblem(null);
    const res = await api<CustomDomainState>("POST", `${base}/custom-domain/verify`);
    setVerifying(false);
    if (res.ok) {
      setState(res.data);
      toast.show("Custom domain verified");
      router.refresh();
      return;
    }
    setProblem(res.error);
  }

  const record = state.customDomainVerification;
  return (
    <div className="stack">
      {state.customDomain ? (
        <p style={{ margin: 0 }}>
          <strong>{state.customDomain}</strong>{" "}
          {state.customDomainStatus === "VERIFIED" ? <Badge tone="ok">Verified</Badge> : <Badge tone="pending">Pending verification</Badge>}
        </p>
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          No custom domain: your donate pages are on this site&rsquo;s address.
        </p>
      )}

      {state.customDomainStatus === "VERIFIED" ? (
        <p className="small muted" style={{ margin: 0 }}>
          Donors reach your donate pages at <code>https://{state.customDomain}</code>.
        </p>
      ) : null}

      {state.customDomainStatus === "PENDING" && record ? (
        <div className="stack">
          <p style={{ margin: 0 }}>
            Nothing is served on <strong>{state.customDomain}</strong> until you prove it is yours. At your DNS provider, add this{" "}
            <strong>TXT</strong> record, then press Verify. DNS changes can take a few minutes to appear.
          </p>
          <CopyField id="cd-record-name" label="Record name (TXT)" value={record.name} />
          <CopyField id="cd-record-value" label="Record value" value={record.value} />
          {problem ? (
            <Notice tone="error" live title="Not verified yet">
              {problem}
            </Notice>
          ) : null}
          {canEdit ? (
            <div className="button-row">
              <Button onClick={verify} loading={verifying}>
                Verify
              </Button>
            </div>
          ) : (
            <p className="small muted" style={{ margin: 0 }}>
              An admin or owner verifies the domain once the record is in place.
            </p>
          )}
        </div>
      ) : null}

      {canEdit ? (
        <form className="form" onSubmit={save} noValidate>
          <TextField
            id="cd-domain"
            label={state.customDomain ? "Change the custom domain" : "Custom domain"}
            optional
            placeholder="give.example.org"
            value={domain}
            error={domainError ?? undefined}
            onChange={(e) => {
              setDomain(e.target.value);
              if (domainError) setDomainError(null);
            }}
            hint="A host name of your own, pointed at this site (a CNAME). Leave it empty to remove it. A new domain needs verifying again."
            autoComplete="off"
            spellCheck={false}
          />
          <SubmitRow loading={saving} disabled={unchanged}>
            {domain.trim() === "" && state.customDomain ? "Remove domain" : "Save domain"}
          </SubmitRow>
        </form>
      ) : null}
    </div>
  );
}
