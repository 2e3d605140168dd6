"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button, SubmitRow } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { TableWrap, TableHead } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { api } from "./api-client";
import { useOrgFieldCheck } from "./use-field-check";
import { ConfirmGroup } from "@/components/ui/confirm-group";

export type Member = { userId: string; email: string; name: string | null; role: "OWNER" | "ADMIN" | "MEMBER"; createdAt: string };

const ROLE_OPTIONS = [
  { value: "MEMBER", label: "Member: read everything, reports and exports" },
  { value: "ADMIN", label: "Admin: campaigns, refunds, webhooks, settings" },
  { value: "OWNER", label: "Owner: everything, members and payouts" },
];
const ROLE_SHORT = [
  { value: "MEMBER", label: "Member" },
  { value: "ADMIN", label: "Admin" },
  { value: "OWNER", label: "Owner" },
];
const ROLE_LABEL: Record<string, string> = { OWNER: "Owner", ADMIN: "Admin", MEMBER: "Member" };

/**
 * The team: owners add people by email with a role, change roles and remove people (the API
 * keeps at least one owner); everyone else sees the list read-only and can leave.
 */
export function MembersManager({
  orgSlug,
  orgName,
  members,
  canManage,
  currentUserId,
}: {
  orgSlug: string;
  orgName: string;
  members: Member[];
  canManage: boolean;
  currentUserId: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Member["role"]>("MEMBER");
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const path = `/api/orgs/${encodeURIComponent(orgSlug)}/members`;
  const checkField = useOrgFieldCheck("member");
  const recheck = (value: string) => void checkField("email", value, setError);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  async function add(e: FormEvent) {
    e.preventDefault();
    setAdding(true);
    const res = await api<Member>("POST", path, { email: email.trim(), role });
    setAdding(false);
    if (!res.ok) {
      setError(res.fieldErrors.email?.[0] ?? (res.status === 409 ? "This person is already a member" : res.error));
      document.getElementById("member-email")?.focus();
      return;
    }
    setEmail("");
    setRole("MEMBER");
    toast.show(`${res.data.email} added as ${ROLE_LABEL[res.data.role]}`);
    router.refresh();
  }

  async function changeRole(m: Member, next: Member["role"]) {
    setPending(m.userId);
    const res = await api("PATCH", `${path}/${encodeURIComponent(m.userId)}`, { role: next });
    setPending(null);
    if (!res.ok) {
      toast.show(res.error, "error");
      router.refresh();
      return;
    }
    toast.show(`${m.email} is now ${ROLE_LABEL[next]}`);
    router.refresh();
  }

  async function remove(m: Member) {
    setPending(m.userId);
    const res = await api("DELETE", `${path}/${encodeURIComponent(m.userId)}`);
    setPending(null);
    setConfirming(null);
    if (!res.ok) {
      toast.show(res.error, "error");
      return;
    }
    if (m.userId === currentUserId) {
      toast.show(`You left ${orgName}`);
      router.push("/dashboard");
      return;
    }
    toast.show(`${m.email} removed`);
    router.refresh();
  }

  return (
    <div className="stack">
      {canManage ? (
        <section className="card" aria-labelledby="add-member-title">
          <h2 id="add-member-title" className="card-title">
            Add a member
          </h2>
          <p className="card-sub">
            We email them an invitation. They sign in with this email address (a magic link, or GitHub/Google with the same address).
          </p>
          <form className="form" onSubmit={add} noValidate>
            <div className="form-grid">
              <TextField
                id="member-email"
                label="Email address"
                type="email"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                required
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  if (error) recheck(e.target.value);
                }}
                onBlur={() => email && recheck(email)}
                error={error}
              />
              <SelectField
                id="member-role"
                label="Role"
                value={role}
                onChange={(e) => setRole(e.target.value as Member["role"])}
                options={ROLE_OPTIONS}
              />
            </div>
            <SubmitRow loading={adding}>Add member</SubmitRow>
          </form>
        </section>
      ) : (
        <Notice tone="info">
          <p>Only owners can add people, change roles or remove members.</p>
        </Notice>
      )}
      <TableWrap label="Members">
        <caption className="sr-only">Members of {orgName}</caption>
        <TableHead columns={["Person", "Role", "Added"]} actions />
        <tbody>
          {members.map((m) => {
            const self = m.userId === currentUserId;
            return (
              <tr key={m.userId}>
                <td className="title-cell" style={{ minWidth: 200 }}>
                  <strong>{m.name ?? m.email}</strong>
                  {self ? (
                    <>
                      {" "}
                      <Badge tone="role" plain>
                        You
                      </Badge>
                    </>
                  ) : null}
                  {m.name ? <span className="sub">{m.email}</span> : null}
                </td>
                <td style={{ minWidth: 130 }}>
                  {canManage ? (
                    <>
                      <label htmlFor={`role-${m.userId}`} className="sr-only">
                        Role of {m.email}
                      </label>
                      <select
                        id={`role-${m.userId}`}
                        className="select"
                        value={m.role}
                        disabled={pending === m.userId}
                        onChange={(e) => changeRole(m, e.target.value as Member["role"])}
                        style={{ minHeight: 34, padding: "4px 8px", fontSize: 14 }}
                      >
                        {ROLE_SHORT.map((o) => (
                          <option key={o.value} value={o.value}>
                            {o.label}
                          </option>
                        ))}
                      </select>
                    </>
                  ) : (
                    <Badge tone="role" plain>
                      {ROLE_LABEL[m.role]}
                    </Badge>
                  )}
                </td>
                <td className="small muted nowrap">
                  <LocalTime iso={m.createdAt} dateOnly />
                </td>
                <td>
                  {canManage || self ? (
                    confirming === m.userId ? (
                      <ConfirmGroup
                        className="row-actions"
                        label={self ? "Confirm leaving" : `Confirm removing ${m.email}`}
                        onCancel={() => setConfirming(null)}
                      >
                        <Button ref={confirmRef} variant="danger" size="small" loading={pending === m.userId} onClick={() => remove(m)}>
                          {self ? "Yes, leave" : "Yes, remove"}
                        </Button>
                        <Button variant="ghost" size="small" onClick={() => setConfirming(null)}>
                          Cancel
                        </Button>
                      </ConfirmGroup>
                    ) : (
                      <Button
                        variant="danger-outline"
                        size="small"
                        onClick={() => setConfirming(m.userId)}
                        aria-label={self ? `Leave ${orgName}` : `Remove ${m.email}`}
                      >
                        {self ? "Leave" : "Remove"}
                      </Button>
                    )
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </TableWrap>
    </div>
  );
}
