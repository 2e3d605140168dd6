import type { Metadata } from "next";
import Link from "next/link";
import { API_ROUTES } from "@/app/api/api-routes";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import styles from "./docs.module.css";
import { GUIDES } from "./guides/guides";
import { DocsFrame } from "./docs-frame";
import { MarkdownText } from "./markdown";
import { resolveRefs } from "./resolve-refs";
import { TableHead } from "@/components/ui/table";

export const metadata: Metadata = {
  title: "API reference",
  description: "Goodfund's REST API: every endpoint, its parameters, bodies, responses and errors.",
};

type Json = Record<string, any>;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const anchor = (s: string) =>
  s
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();

/** A JSON value, pretty-printed, with `$ref`s turned into links to their schema below. */
function JsonBlock({ value }: { value: unknown }) {
  const text = JSON.stringify(value, null, 2);
  const parts = text.split(/("\$ref": "#\/components\/schemas\/[^"]+")/g);
  return (
    <pre className={styles.code}>
      <code>
        {parts.map((p, i) => {
          const m = p.match(/^"\$ref": "#\/components\/schemas\/([^"]+)"$/);
          if (!m) return p;
          return (
            <span key={i}>
              &quot;$ref&quot;: <a href={`#schema-${anchor(m[1])}`}>&quot;{m[1]}&quot;</a>
            </span>
          );
        })}
      </code>
    </pre>
  );
}

function Operation({ method, path, op }: { method: string; path: string; op: Json }) {
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
        <div className={styles.tableWrap}>
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
      <div className={styles.tableWrap}>
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
function Described({ items }: { items: Record<string, Json> }) {
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
function referenceDocument(): Json {
  resolved ??= resolveRefs(buildOpenApiDocument(API_ROUTES) as Json);
  return resolved;
}

// GET /docs: the API reference, rendered from the same OpenAPI document as /api/openapi.json.
export default function DocsPage() {
  const doc = referenceDocument();
  const tags: { name: string; description: string }[] = doc.tags ?? [];
  const byTag = new Map<string, { method: string; path: string; op: Json }[]>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const schemas = Object.entries((doc.components?.schemas ?? {}) as Record<string, Json>);
  return (
    <DocsFrame
      mainId="reference"
      skipLabel="Skip to the reference"
      navLabel="API sections"
      nav={
        <>
          <li>
            <a href="#overview">Overview</a>
          </li>
          <li>
            <a href="#guides">Guides</a>
          </li>
          {tags
            .filter((t) => byTag.has(t.name))
            .map((t) => (
              <li key={t.name}>
                <a href={`#tag-${anchor(t.name)}`}>{t.name}</a>
              </li>
            ))}
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </>
      }
    >
      <section id="overview" aria-labelledby="overview-title">
        <h1 id="overview-title">
          {doc.info.title} <span className={styles.version}>v{doc.info.version}</span>
        </h1>
        <MarkdownText text={doc.info.description} headingOffset={2} className={styles.description} />
        <p>
          Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {doc.openapi}).
        </p>
        <h3>Authentication schemes</h3>
        <Described items={(doc.components?.securitySchemes ?? {}) as Record<string, Json>} />
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
      {tags
        .filter((t) => byTag.has(t.name))
        .map((t) => (
          <section key={t.name} id={`tag-${anchor(t.name)}`} aria-labelledby={`tag-${anchor(t.name)}-title`}>
            <h2 id={`tag-${anchor(t.name)}-title`}>{t.name}</h2>
            <MarkdownText text={t.description} className={styles.tagDescription} />
            {byTag.get(t.name)!.map((o) => (
              <Operation key={`${o.method} ${o.path}`} {...o} />
            ))}
          </section>
        ))}
      <section id="schemas" aria-labelledby="schemas-title">
        <h2 id="schemas-title">Schemas</h2>
        {schemas.map(([name, schema]) => (
          <details key={name} id={`schema-${anchor(name)}`} className={styles.details}>
            <summary>{name}</summary>
            <JsonBlock value={schema} />
          </details>
        ))}
      </section>
    </DocsFrame>
  );
}
