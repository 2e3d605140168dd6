import "./ui.css";
import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

// Any address the app does not serve: a branded page with the ways back in, answered with 404.
// Plain links: this page is every page's not-found boundary, so next/link here would be loaded by
// every page, the donate pages included, that has no link of its own.
export default function NotFound() {
  return (
    <main id="main" className="simple-main">
      <p className="brand-line">
        <span className="brand-mark" aria-hidden="true">
          ♥
        </span>{" "}
        Goodfund
      </p>
      <EmptyState
        title="We can't find that page"
        level={1}
        icon="?"
        action={
          <span className="not-found-actions">
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a className="button" href="/">
              Go to the home page
            </a>{" "}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a className="button secondary" href="/dashboard">
              Your organizations
            </a>
          </span>
        }
      >
        The link may be mistyped or out of date. If someone sent you a donation link, ask them for the current one.
      </EmptyState>
    </main>
  );
}
