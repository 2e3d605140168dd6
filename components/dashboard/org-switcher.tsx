"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

export type OrgOption = { slug: string; name: string; role: string; color: string | null };

const ROLE_LABEL: Record<string, string> = { OWNER: "Owner", ADMIN: "Admin", MEMBER: "Member" };

export function OrgAvatar({ name, color, size = 28 }: { name: string; color: string | null; size?: number }) {
  return (
    <span className="org-avatar" aria-hidden="true" style={{ background: color ?? "var(--brand)", width: size, height: size }}>
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

/**
 * Switch organization: a disclosure button and a menu of links. Arrow keys move between the
 * links, Escape closes it and returns focus to the button, leaving it with Tab closes it too.
 */
export function OrgSwitcher({ current, orgs }: { current: OrgOption; orgs: OrgOption[] }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>(".menu a")?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (!open) return;
    const links = Array.from(root.current?.querySelectorAll<HTMLElement>(".menu a") ?? []);
    const i = links.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape") {
      e.preventDefault();
      e.nativeEvent.preventDefault();
      setOpen(false);
      button.current?.focus();
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      links[(i + 1) % links.length]?.focus();
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      links[(i - 1 + links.length) % links.length]?.focus();
    } else if (e.key === "Home") {
      e.preventDefault();
      links[0]?.focus();
    } else if (e.key === "End") {
      e.preventDefault();
      links[links.length - 1]?.focus();
    }
  }

  return (
    <div
      className="switcher"
      ref={root}
      onKeyDown={onKeyDown}
      onBlur={(e) => {
        if (open && !root.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="switcher-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <OrgAvatar name={current.name} color={current.color} />
        <span className="org-text">
          <span className="sr-only">Organization: </span>
          <strong>{current.name}</strong>
          <span>{ROLE_LABEL[current.role] ?? current.role}</span>
        </span>
        <span className="chevron" aria-hidden="true" />
        <span className="sr-only">(switch organization)</span>
      </button>
      {open ? (
        <div className="menu" id={menuId}>
          {orgs.map((o) => (
            <Link
              key={o.slug}
              href={`/dashboard/${o.slug}`}
              aria-current={o.slug === current.slug ? "true" : undefined}
              onClick={() => setOpen(false)}
            >
              <span className="menu-name">{o.name}</span>
              <span className="small muted menu-tag">{o.slug === current.slug ? "Current" : ROLE_LABEL[o.role]}</span>
            </Link>
          ))}
          <hr />
          <Link href="/dashboard?new=1#create-org" onClick={() => setOpen(false)}>
            + New organization
          </Link>
          <Link href="/dashboard" onClick={() => setOpen(false)}>
            All organizations
          </Link>
        </div>
      ) : null}
    </div>
  );
}
