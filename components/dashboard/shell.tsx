"use client";

import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { BrandLink } from "@/components/ui/brand";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The dashboard frame: a sidebar on wide screens; on phones a top bar whose menu button opens
 * the sidebar as a drawer (focus moves into it, Tab stays inside, Escape or the scrim closes it
 * and focus returns to the button, and any navigation closes it).
 */
export function DashboardShell({ sidebar, title, children }: { sidebar: ReactNode; title: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const drawer = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) menuButton.current?.focus();
  }, []);

  // A navigation closes the drawer: adjust during render, not in an effect (no extra pass).
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const first = drawer.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        // A menu open inside the drawer closes first (it stops the event itself).
        if (e.defaultPrevented) return;
        close(true);
      } else if (e.key === "Tab" && drawer.current) {
        const items = Array.from(drawer.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null);
        if (items.length === 0) return;
        const firstEl = items[0];
        const lastEl = items[items.length - 1];
        if (e.shiftKey && document.activeElement === firstEl) {
          e.preventDefault();
          lastEl.focus();
        } else if (!e.shiftKey && document.activeElement === lastEl) {
          e.preventDefault();
          firstEl.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, close]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="shell">
        <header className="topbar">
          <button
            ref={menuButton}
            type="button"
            className="menu-button"
            aria-expanded={open}
            aria-controls="dashboard-sidebar"
            onClick={() => setOpen((o) => !o)}
          >
            <span className="icon-lines" aria-hidden="true" />
            <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
          </button>
          <div className="org-name">{title}</div>
        </header>
        <div className="scrim" data-open={open} onClick={() => close(true)} aria-hidden="true" />
        <aside ref={drawer} id="dashboard-sidebar" className="sidebar" data-open={open} aria-label="Dashboard">
          <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 8 }}>
            <BrandLink href="/dashboard" />
            <button type="button" className="menu-button sidebar-close" onClick={() => close(true)}>
              <span aria-hidden="true">×</span>
              <span className="sr-only">Close menu</span>
            </button>
          </div>
          {sidebar}
        </aside>
        <main id="main" className="main" tabIndex={-1}>
          <div className="main-inner">{children}</div>
        </main>
      </div>
    </>
  );
}
