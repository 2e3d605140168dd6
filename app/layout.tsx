import type { Metadata, Viewport } from "next";
import { isSandboxMode } from "@/lib/auth/modes";
import { getRequestLocale } from "@/lib/i18n/request";
import "./globals.css";
import { TestModeBanner } from "./test-mode-banner";

export const metadata: Metadata = {
  title: { default: "Goodfund", template: "%s · Goodfund" },
  description: "Open-source fundraising: campaigns, hosted donate pages, exact money and a documented REST API.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Every page renders per request: its scripts carry the request's CSP nonce (proxy.ts), which a
// page rendered at build time could not.
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // An organization's public pages are in the donor's language (proxy.ts chooses it); the rest is English.
  return (
    <html lang={await getRequestLocale()}>
      <body>
        {isSandboxMode() ? <TestModeBanner /> : null}
        {children}
      </body>
    </html>
  );
}
