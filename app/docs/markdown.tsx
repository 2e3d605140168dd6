import { isValidElement, type ReactNode } from "react";
import Markdown, { defaultUrlTransform, type Components } from "react-markdown";

/**
 * A guide's link to another guide is written as a file beside it (`[errors](errors.md#codes)`),
 * so the Markdown also reads well in the repository; on the site it becomes the guide's page.
 */
export function guideHref(url: string): string {
  const m = /^(?:\.\/)?([a-z0-9-]+)\.md(#[\w-]*)?$/.exec(url);
  return m ? `/docs/guides/${m[1]}${m[2] ?? ""}` : url;
}

function transformUrl(url: string): string {
  // The default keeps http(s), mailto and relative URLs and drops the rest (javascript:, data:).
  return defaultUrlTransform(guideHref(url));
}

/** The plain text of rendered children, for a heading's anchor. */
function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
}

/** `Errors and codes` → `errors-and-codes`: a heading's anchor, as GitHub writes it. */
export const headingId = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s/g, "-");

/** A code block scrolls sideways on a phone: focusable, so the keyboard can scroll it too. */
const focusablePre: Components["pre"] = ({ children }) => <pre tabIndex={0}>{children}</pre>;

const headings = (offset: number, ids: boolean): Components => {
  const out: Components = { pre: focusablePre };
  for (let level = 1; level <= 6; level++) {
    const Tag = `h${Math.min(6, level + offset)}` as "h1";
    out[`h${level}` as "h1"] = ({ children }) => <Tag id={ids ? headingId(textOf(children)) : undefined}>{children}</Tag>;
  }
  return out;
};

/**
 * Markdown from the API reference or a guide, rendered to React elements: raw HTML in the text
 * is dropped (never injected), link URLs are filtered to safe schemes, and nothing needs an inline
 * script or style, so the page's Content-Security-Policy holds.
 *
 * `inline` renders a short text without its paragraph (for table cells and summaries);
 * `headingOffset` moves the text's headings below the page's own (2: `#` becomes h3);
 * `headingIds` gives each heading an anchor made of its text (a guide's `#errors-and-codes`).
 */
export function MarkdownText({
  text,
  inline = false,
  headingOffset = 0,
  headingIds = false,
  className,
}: {
  text: string | undefined;
  inline?: boolean;
  headingOffset?: number;
  headingIds?: boolean;
  className?: string;
}) {
  if (!text) return null;
  const rendered = (
    <Markdown
      skipHtml
      urlTransform={transformUrl}
      components={headingOffset || headingIds ? headings(headingOffset, headingIds) : { pre: focusablePre }}
      disallowedElements={inline ? ["p"] : undefined}
      unwrapDisallowed={inline}
    >
      {text}
    </Markdown>
  );
  if (inline) return rendered;
  return <div className={className}>{rendered}</div>;
}
