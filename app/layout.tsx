import type { Metadata, Viewport } from "next";
import { isSandboxMode } from "@/lib/auth/modes";
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

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        {isSandboxMode() ? <TestModeBanner /> : null}
        {children}
      </body>
    </html>
  );
}
