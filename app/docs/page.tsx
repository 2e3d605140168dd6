import type { Metadata } from "next";
import Link from "next/link";
import styles from "./docs.module.css";
import { GUIDES } from "./guides/guides";
import { DocsFrame } from "./docs-frame";
import { MarkdownText } from "./markdown";
import { Described, OperationIndex, ReferenceNav, referenceDocument, referenceSections, sectionHref } from "./reference";

export const metadata: Metadata = {
  title: "API reference",
  description: "Goodfund's REST API: every endpoint, its parameters, bodies, responses and errors.",
};

// GET /docs: the API reference's overview, the guides, and an index of every endpoint by section
// (each section's page describes them: ./[section]/page.tsx).
export default function DocsPage() {
  const doc = referenceDocument();
  return (
    <DocsFrame mainId="reference" skipLabel="Skip to the reference" navLabel="API sections" nav={<ReferenceNav current="overview" />}>
      <section id="overview" aria-labelledby="overview-title">
        <h1 id="overview-title">
          {doc.info.title} <span className={styles.version}>v{doc.info.version}</span>
        </h1>
        <MarkdownText text={doc.info.description} headingOffset={2} className={styles.description} />
        <p>
          Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {doc.openapi}).
        </p>
        <h3>Authentication schemes</h3>
        <Described items={(doc.components?.securitySchemes ?? {}) as Record<string, Record<string, string>>} />
      </section>
      <section id="guides" aria-labelledby="guides-title">
        <h2 id="guides-title">Guides</h2>
        <ul className={styles.guideList}>
          {GUIDES.map((g) => (
            <li key={g.slug}>
              <Link href={`/docs/guides/${g.slug}`}>{g.title}</Link>: {g.summary}
            </li>
          ))}
        </ul>
      </section>
      <section id="endpoints" aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        {referenceSections().map((s) => (
          <section key={s.slug} id={`tag-${s.slug}`} aria-labelledby={`tag-${s.slug}-title`}>
            <h3 id={`tag-${s.slug}-title`}>
              <Link href={sectionHref(s.slug)}>{s.name}</Link>
            </h3>
            <OperationIndex section={s} />
          </section>
        ))}
        <p>
          <Link href="/docs/schemas">Schemas</Link>: every object the endpoints take and answer.
        </p>
      </section>
    </DocsFrame>
  );
}
