import type { CSSProperties, ReactNode } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { brandPalette, brandStyle } from "@/components/donate/brand";
import { OrgBar } from "../org-bar";
import shell from "../donate/[slug]/page.module.css";
import { loadAccountOrg } from "./data";

export const metadata: Metadata = { robots: { index: false, follow: false } };

/**
 * The donor account pages' frame, as the donate pages have it: the organization's bar and brand
 * colour, a skip link and the footer. An unknown organization is a 404.
 */
export default async function AccountLayout({ children, params }: { children: ReactNode; params: Promise<{ orgSlug: string }> }) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  return (
    <div className={shell.shell} style={brandStyle(brandPalette(org.color)) as CSSProperties}>
      <a className={shell.skip} href="#main">
        Skip to content
      </a>
      <OrgBar org={org} secure={false} />
      {children}
      <footer className={shell.footer}>
        <p>
          {org.legalName ?? org.name}
          {org.taxId ? ` · Tax ID ${org.taxId}` : ""}
        </p>
        <p>Fundraising by Goodfund</p>
      </footer>
    </div>
  );
}
