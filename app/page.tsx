import "./ui.css";
import Link from "next/link";
import { getEnv } from "@/lib/env";

export default function Home() {
  // This install's own address (APP_URL, else localhost and the port it serves on), so the example runs as shown.
  const origin = getEnv().appUrl;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <main id="main" className="container">
        <nav className="site-nav" aria-label="Site">
          <Link className="brand" href="/" style={{ padding: 0 }}>
            <span className="brand-mark" aria-hidden="true">
              G
            </span>
            Goodfund
          </Link>
          <div className="links">
            <Link className="button secondary small" href="/signin">
              Sign in
            </Link>
            <Link className="button small" href="/dashboard">
              Dashboard
            </Link>
          </div>
        </nav>
        <section className="hero">
          <h1>Fundraising you can check to the cent.</h1>
          <p>
            Goodfund is an open-source fundraising platform. Organizations run donation, peer-to-peer, event and membership campaigns;
            donors give on hosted pages; payments go through Stripe; and everything the dashboard does is a documented REST API.
          </p>
          <p style={{ display: "flex", gap: 12, flexWrap: "wrap" }}>
            <Link className="button" href="/docs">
              API reference
            </Link>
            <a className="button secondary" href="/api/openapi.json">
              OpenAPI 3.1 document
            </a>
            <a className="button secondary" href="#try">
              Get a token
            </a>
          </p>
        </section>
        <section className="grid" aria-label="Why Goodfund">
          <div className="card">
            <h2>Exact money</h2>
            <p>Every amount is an integer of cents. Campaign and donor totals always equal what the donations say.</p>
          </div>
          <div className="card">
            <h2>API first</h2>
            <p>Bearer tokens, one error shape, rate limits with headers, and an OpenAPI document generated from the same schemas.</p>
          </div>
          <div className="card">
            <h2>Yours to run</h2>
            <p>
              <code>npm ci &amp;&amp; npm start</code> serves the whole product on an embedded database with demo data.
            </p>
          </div>
        </section>
        <section id="try" className="card" style={{ marginTop: 24 }}>
          <h2>Try the API</h2>
          <pre>
            <code>{`TOKEN=$(npm run -s token -- --email demo@goodfund.local)
curl -H "Authorization: Bearer $TOKEN" ${origin}/api/orgs`}</code>
          </pre>
        </section>
      </main>
    </>
  );
}
