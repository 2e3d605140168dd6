import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DocsFrame } from "../../docs-frame";
import { MarkdownText } from "../../markdown";
import styles from "../../docs.module.css";
import { findGuide, GUIDES, readGuide } from "../guides";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const guide = findGuide((await params).slug);
  return guide ? { title: guide.title, description: guide.summary } : {};
}

// GET /docs/guides/:slug: one of the guides in docs/, rendered from its Markdown.
export default async function GuidePage({ params }: Props) {
  const guide = findGuide((await params).slug);
  if (!guide) notFound();
  const text = await readGuide(guide);
  return (
    <DocsFrame
      mainId="guide"
      skipLabel="Skip to the guide"
      navLabel="Guides"
      mainClassName={styles.guide}
      nav={
        <>
          <li>
            <Link href="/docs">API reference</Link>
          </li>
          {GUIDES.map((g) => (
            <li key={g.slug}>
              <Link href={`/docs/guides/${g.slug}`} aria-current={g.slug === guide.slug ? "page" : undefined}>
                {g.title}
              </Link>
            </li>
          ))}
        </>
      }
    >
      <MarkdownText text={text} headingIds />
    </DocsFrame>
  );
}
