"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { SubmitRow } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { slugify } from "@/lib/slug";
import { api, firstErrors } from "./api-client";
import { useOrgFieldCheck } from "./use-field-check";

type Fields = "name" | "slug" | "notificationEmail";
const FIELDS: Fields[] = ["name", "slug", "notificationEmail"];

/** The API value of a field as typed: empty optional fields are left out. */
function valueOf(field: Fields, raw: string): string | undefined {
  const v = raw.trim();
  if (field === "name") return raw;
  return v === "" ? undefined : v;
}

/**
 * Create an organization (POST /api/orgs): the creator becomes its OWNER. Messages come from
 * the API's own zod schema: on blur (checked on the server), then the POST's fieldErrors.
 */
export function CreateOrgForm({ defaultEmail, autoFocus }: { defaultEmail: string; autoFocus?: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const [values, setValues] = useState<Record<Fields, string>>({ name: "", slug: "", notificationEmail: defaultEmail });
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const checkField = useOrgFieldCheck("create");

  function recheck(field: Fields, raw: string) {
    void checkField(field, valueOf(field, raw), (message) => setErrors((e) => ({ ...e, [field]: message ?? undefined })));
  }

  function set(field: Fields, v: string) {
    setValues((prev) => ({ ...prev, [field]: v }));
    // An error already shown updates as the user fixes it.
    if (errors[field]) recheck(field, v);
  }

  function blur(field: Fields) {
    recheck(field, values[field]);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setFormError(null);
    setBusy(true);
    const body = {
      name: values.name,
      slug: valueOf("slug", values.slug),
      notificationEmail: valueOf("notificationEmail", values.notificationEmail),
    };
    const res = await api<{ slug: string; name: string }>("POST", "/api/orgs", body);
    if (res.ok) {
      toast.show(`${res.data.name} created`);
      router.push(`/dashboard/${res.data.slug}`);
      return;
    }
    setBusy(false);
    const fieldErrors = firstErrors(res.fieldErrors);
    if (res.status === 409) fieldErrors.slug = "This address is taken. Choose another one.";
    setErrors(fieldErrors as Partial<Record<Fields, string>>);
    const bad = FIELDS.find((f) => fieldErrors[f]);
    if (bad) document.getElementById(`org-${bad}`)?.focus();
    else setFormError(res.error);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-describedby={formError ? "org-form-error" : undefined}>
      {formError ? (
        <Notice tone="error" live id="org-form-error">
          {formError}
        </Notice>
      ) : null}
      <TextField
        id="org-name"
        label="Organization name"
        required
        autoFocus={autoFocus}
        autoComplete="organization"
        value={values.name}
        onChange={(e) => set("name", e.target.value)}
        onBlur={() => blur("name")}
        error={errors.name}
        hint="Shown to donors on your donate pages and receipts."
      />
      <TextField
        id="org-slug"
        label="Address"
        prefix="/o/"
        value={values.slug}
        onChange={(e) => set("slug", e.target.value.toLowerCase())}
        onBlur={() => blur("slug")}
        error={errors.slug}
        autoCapitalize="none"
        spellCheck={false}
        placeholder={slugify(values.name, 48) || "riverside-food-bank"}
        hint="Lower-case letters, digits and hyphens, 3–48 characters. Leave empty to make one from the name."
      />
      <TextField
        id="org-notificationEmail"
        label="Notification email"
        type="email"
        autoComplete="email"
        value={values.notificationEmail}
        onChange={(e) => set("notificationEmail", e.target.value)}
        onBlur={() => blur("notificationEmail")}
        error={errors.notificationEmail}
        hint="Where we send new-donation and dispute alerts."
      />
      <SubmitRow loading={busy}>Create organization</SubmitRow>
    </form>
  );
}
