"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

import type { NavGroup } from "./nav-items";

/**
 * Sidebar links; the current page is the item whose address is the longest prefix of the URL.
 * Not prefetched: every dashboard page reads the database, and a dozen prefetches per page view
 * cost more than the wait (each page has a loading skeleton).
 */
export function SidebarNav({ groups }: { groups: NavGroup[] }) {
  const pathname = usePathname() ?? "";
  const all = groups.flatMap((g) => g.items);
  const current = all
    .filter((i) => pathname === i.href || pathname.startsWith(`${i.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <nav className="nav" aria-label="Organization">
      {groups.map((g) => (
        <div key={g.label} role="group" aria-labelledby={`nav-${g.label}`}>
          <p className="nav-group-label" id={`nav-${g.label}`}>
            {g.label}
          </p>
          {g.items.map((i) => (
            <Link key={i.href} href={i.href} prefetch={false} aria-current={i.href === current ? "page" : undefined}>
              {i.label}
            </Link>
          ))}
        </div>
      ))}
    </nav>
  );
}
