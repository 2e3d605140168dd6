import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DocsFrame } from "../docs-frame";
import { MarkdownText } from "../markdown";
import styles from "../docs.module.css";
import { JsonBlock, Operation, ReferenceNav, anchor, referenceDocument, referenceSections } from "../reference";

type Props = { params: Promise<{ section: string }> };

/** Every section's page and the schemas', rendered at build time. */
export function generateStaticParams() {
  return [...referenceSections().map((s) => ({ section: s.slug })), { section: "schemas" }];
}
export const dynamicParams = false;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const slug = (await params).section;
  if (slug === "schemas") return { title: "Schemas · API reference", description: "Every object Goodfund's API takes and answers." };
  const section = referenceSections().find((s) => s.slug === slug);
  return section ? { title: `${section.name} · API reference`, description: `Goodfund's API: ${section.name}.` } : {};
}

// GET /docs/:section: one section of the API reference (a tag's operations), or /docs/schemas.
export default async function ReferenceSectionPage({ params }: Props) {
  const slug = (await params).section;
  if (slug === "schemas") {
    const schemas = Object.entries((referenceDocument().components?.schemas ?? {}) as Record<string, unknown>);
    return (
      <DocsFrame mainId="reference" skipLabel="Skip to the schemas" navLabel="API sections" nav={<ReferenceNav current="schemas" />}>
        <h1>Schemas</h1>
        <p className={styles.tagDescription}>Every object the endpoints take and answer, as JSON Schema. Open one to read it.</p>
        {schemas.map(([name, schema]) => (
          <details key={name} id={`schema-${anchor(name)}`} className={styles.details}>
            <summary>{name}</summary>
            <JsonBlock value={schema} />
          </details>
        ))}
      </DocsFrame>
    );
  }
  const section = referenceSections().find((s) => s.slug === slug);
  if (!section) notFound();
  return (
    <DocsFrame mainId="reference" skipLabel="Skip to the reference" navLabel="API sections" nav={<ReferenceNav current={section.slug} />}>
      <h1>{section.name}</h1>
      <MarkdownText text={section.description} className={styles.tagDescription} />
      {section.operations.map((o) => (
        <Operation key={`${o.method} ${o.path}`} {...o} />
      ))}
    </DocsFrame>
  );
}
