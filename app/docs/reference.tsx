// The API reference's parts, shared by its pages: /docs (overview and index), /docs/:section (one
// tag's operations) and /docs/schemas. All are rendered from the same OpenAPI document as
// /api/openapi.json.
import type { ReactNode } from "react";
import Link from "next/link";
import { API_ROUTES } from "@/app/api/api-routes";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { TableHead } from "@/components/ui/table";
import styles from "./docs.module.css";
import { GUIDES } from "./guides/guides";
import { MarkdownText } from "./markdown";
import { resolveRefs } from "./resolve-refs";

type Json = Record<string, any>;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export const anchor = (s: string) =>
  s
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();

/** A JSON value, pretty-printed, with `$ref`s turned into links to their schema below. */
export function JsonBlock({ value }: { value: unknown }) {
  const text = JSON.stringify(value, null, 2);
  const parts = text.split(/("\$ref": "#\/components\/schemas\/[^"]+")/g);
  return (
    <pre className={styles.code} tabIndex={0}>
      <code>
        {parts.map((p, i) => {
          const m = p.match(/^"\$ref": "#\/components\/schemas\/([^"]+)"$/);
          if (!m) return p;
          return (
            <span key={i}>
              &quot;$ref&quot;: <a href={`/docs/schemas#schema-${anchor(m[1])}`}>&quot;{m[1]}&quot;</a>
            </span>
          );
        })}
      </code>
    </pre>
  );
}

export function Operation({ method, path, op }: { method: string; path: string; op: Json }) {
  const params: Json[] = op.parameters ?? [];
  const body = op.requestBody?.content?.["application/json"];
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  return (
    <article className={styles.op} id={anchor(op.operationId)} aria-labelledby={`${anchor(op.operationId)}-title`}>
      <h3 id={`${anchor(op.operationId)}-title`} className={styles.opTitle}>
        <span className={`${styles.method} ${styles[method]}`}>{method.toUpperCase()}</span>
        <code className={styles.path}>{path}</code>
      </h3>
      <p className={styles.summary}>
        <MarkdownText text={op.summary} inline />
        {isPublic ? <span className={styles.badge}>public</span> : null}
      </p>
      <MarkdownText text={op.description} headingOffset={3} className={styles.description} />
      {params.length > 0 ? (
        // Scrolls sideways on a phone: focusable, so the keyboard can scroll it too.
        <div className={styles.tableWrap} tabIndex={0} role="region" aria-label={`${method.toUpperCase()} ${path}: parameters`}>
          <table className={styles.table}>
            <caption>Parameters</caption>
            <TableHead columns={["Name", "In", "Required", "Schema", "Description"]} />
            <tbody>
              {params.map((p) => (
                <tr key={`${p.in}-${p.name}`}>
                  <td>
                    <code>{p.name}</code>
                  </td>
                  <td>{p.in}</td>
                  <td>{p.required ? "yes" : "no"}</td>
                  <td>
                    <code>{summarizeSchema(p.schema)}</code>
                  </td>
                  <td>
                    <MarkdownText text={p.description} inline />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {body ? (
        <details className={styles.details}>
          <summary>Request body (application/json)</summary>
          <JsonBlock value={body.schema} />
          {body.examples
            ? Object.entries(body.examples as Record<string, Json>).map(([name, ex]) => (
                <div key={name}>
                  <p className={styles.exampleTitle}>Example: {ex.summary ?? name}</p>
                  <JsonBlock value={ex.value} />
                </div>
              ))
            : null}
        </details>
      ) : null}
      <div className={styles.tableWrap} tabIndex={0} role="region" aria-label={`${method.toUpperCase()} ${path}: responses`}>
        <table className={styles.table}>
          <caption>Responses</caption>
          <TableHead columns={["Status", "Meaning"]} />
          <tbody>
            {Object.entries(op.responses as Record<string, Json>).map(([code, res]) => (
              <tr key={code}>
                <td>
                  <code>{code}</code>
                </td>
                <td>
                  <MarkdownText text={res.description} inline />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {Object.entries(op.responses as Record<string, Json>)
        .filter(([code, res]) => Number(code) < 300 && res.content)
        .map(([code, res]) => (
          <details key={code} className={styles.details}>
            <summary>
              {code} response ({Object.keys(res.content)[0]})
            </summary>
            <ResponseHeaders headers={res.headers} />
            <JsonBlock value={(Object.values(res.content)[0] as Json).schema ?? {}} />
          </details>
        ))}
    </article>
  );
}

/** Named things (headers, authentication schemes), each with its Markdown description. */
export function Described({ items }: { items: Record<string, Json> }) {
  return (
    <dl className={styles.headers}>
      {Object.entries(items).map(([name, item]) => (
        <div key={name}>
          <dt>
            <code>{name}</code>
          </dt>
          <dd>
            <MarkdownText text={item.description} inline />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A response's headers, each with what it means. */
function ResponseHeaders({ headers }: { headers: Record<string, Json> | undefined }) {
  if (!headers || Object.keys(headers).length === 0) return null;
  return <Described items={headers} />;
}

function summarizeSchema(s: Json | undefined): string {
  if (!s) return "string";
  if (s.enum) return s.enum.join(" | ");
  const range = [s.minimum !== undefined ? `≥ ${s.minimum}` : "", s.maximum !== undefined ? `≤ ${s.maximum}` : ""]
    .filter(Boolean)
    .join(", ");
  return [s.type ?? (s.anyOf ? "any of" : "value"), s.format, range].filter(Boolean).join(" ");
}

let resolved: Json | undefined;

/** The OpenAPI document with its reusable parameters, headers and responses in place (built once). */
export function referenceDocument(): Json {
  resolved ??= resolveRefs(buildOpenApiDocument(API_ROUTES) as Json);
  return resolved;
}

export type ReferenceOperation = { method: string; path: string; op: Json };
export type ReferenceSection = { name: string; slug: string; description: string; operations: ReferenceOperation[] };

let sectionList: ReferenceSection[] | undefined;

/** The reference's sections: the document's tags in order, each with its operations (tags without any left out). */
export function referenceSections(): ReferenceSection[] {
  if (sectionList) return sectionList;
  const doc = referenceDocument();
  const byTag = new Map<string, ReferenceOperation[]>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const tags: { name: string; description?: string }[] = doc.tags ?? [];
  sectionList = tags
    .filter((t) => byTag.has(t.name))
    .map((t) => ({ name: t.name, slug: anchor(t.name), description: t.description ?? "", operations: byTag.get(t.name)! }));
  return sectionList;
}

/** The page a section's reference is on. */
export const sectionHref = (slug: string) => `/docs/${slug}`;

/** The reference's navigation: the overview, the guides, each section, the schemas; `current` is this page's. */
export function ReferenceNav({ current }: { current: string }): ReactNode {
  const item = (href: string, key: string, label: string) => (
    <li key={key}>
      <Link href={href} aria-current={current === key ? "page" : undefined}>
        {label}
      </Link>
    </li>
  );
  return (
    <>
      {item("/docs", "overview", "Overview")}
      {item("/docs#guides", "guides", `Guides (${GUIDES.length})`)}
      {referenceSections().map((s) => item(sectionHref(s.slug), s.slug, s.name))}
      {item("/docs/schemas", "schemas", "Schemas")}
    </>
  );
}

/** A section's operations as one line each (method, path, summary), linked to where they are described. */
export function OperationIndex({ section }: { section: ReferenceSection }) {
  return (
    <ul className={styles.opIndex}>
      {section.operations.map(({ method, path, op }) => (
        <li key={`${method} ${path}`}>
          <Link href={`${sectionHref(section.slug)}#${anchor(op.operationId)}`}>
            <span className={`${styles.method} ${styles[method]}`}>{method.toUpperCase()}</span> <code className={styles.path}>{path}</code>
          </Link>{" "}
          <MarkdownText text={op.summary} inline />
        </li>
      ))}
    </ul>
  );
}
