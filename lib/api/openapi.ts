import { z } from "zod";
import type { Role } from "@/db/schema";
import pkg from "@/package.json";
import { errorSchema } from "@/lib/schemas/common";
import { OPERATIONS } from "./operations";
import { ROLE_TEXT, TAGS, type OperationRow } from "./operations/types";

export { OPERATIONS } from "./operations";
export type { OperationRow } from "./operations/types";

/*
 * The OpenAPI 3.1 document of the API, generated from the same zod schemas the route handlers
 * parse with and serialize through. Request bodies, query and path parameters are described by
 * the input side of their schemas (what a client sends), responses by the output side (what the
 * server answers). Schemas carrying `.meta({ id })` become `components.schemas` entries.
 *
 * Adding an endpoint means adding a row to OPERATIONS below; tests/integration/openapi.test.ts
 * checks that every route file's methods have a row and every row names a real file and method.
 */


/** `orgs/[idOrSlug]/campaigns` → `/api/orgs/{idOrSlug}/campaigns`. */
export function openApiPath(file: string): string {
  return `/api/${file}`.replace(/\[([^\]/.]+)\]/g, "{$1}");
}

function pathParamNames(file: string): string[] {
  return [...file.matchAll(/\[([^\]/.]+)\]/g)].map((m) => m[1]);
}

// ---------------------------------------------------------------------------------------------
// zod → JSON Schema, with `.meta({ id })` schemas collected as components

type Json = Record<string, unknown>;
type Io = "input" | "output";

const REF_PLACEHOLDER = "#/components/schemas/~";

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function mapRefs(node: unknown, fn: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => mapRefs(n, fn));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === "$ref" && typeof v === "string" ? fn(v) : mapRefs(v, fn);
  return out;
}

/**
 * Converts schemas one at a time (so each conversion only sees what it reaches) and gathers the
 * `$defs` zod extracts for `.meta({ id })` schemas. A component whose input and output sides
 * differ and are both used is emitted twice: `<id>` (output) and `<id>Input`.
 */
class SchemaCollector {
  private defs = new Map<string, { id: string; io: Io; schema: Json }>();

  convert(schema: z.ZodType, io: Io): Json {
    const generated = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      metadata: z.globalRegistry,
      // A transform on the output side (or any future unrepresentable type) becomes `{}`, never an exception.
      unrepresentable: "any",
      cycles: "ref",
      reused: "inline",
      override: ({ jsonSchema }) => tidy(jsonSchema as Json, io),
    }) as Json;
    const { $schema: _dialect, $defs, ...root } = generated;
    void _dialect;
    const placeholder = (ref: string) => (ref.startsWith("#/$defs/") ? `${REF_PLACEHOLDER}${io}:${ref.slice(8)}` : ref);
    for (const [id, def] of Object.entries(isObject($defs) ? $defs : {})) {
      const key = `${io}:${id}`;
      const converted = mapRefs(def, placeholder) as Json;
      const seen = this.defs.get(key);
      if (seen && JSON.stringify(seen.schema) !== JSON.stringify(converted)) {
        throw new Error(`OpenAPI: two different schemas carry the id "${id}"`);
      }
      this.defs.set(key, { id, io, schema: converted });
    }
    return mapRefs(root, placeholder) as Json;
  }

  /** The component name of each collected definition, and the schemas under those names. */
  finish(): { rename: (ref: string) => string; schemas: Record<string, Json> } {
    const names = new Map<string, string>();
    for (const [key, def] of this.defs) {
      const other = this.defs.get(`${def.io === "input" ? "output" : "input"}:${def.id}`);
      const differs = other !== undefined && JSON.stringify(other.schema) !== JSON.stringify(def.schema);
      names.set(key, differs && def.io === "input" ? `${def.id}Input` : def.id);
    }
    const rename = (ref: string) => {
      if (!ref.startsWith(REF_PLACEHOLDER)) return ref;
      const name = names.get(ref.slice(REF_PLACEHOLDER.length));
      if (!name) throw new Error(`OpenAPI: unresolved schema reference ${ref}`);
      return `#/components/schemas/${name}`;
    };
    const schemas: Record<string, Json> = {};
    for (const [key, def] of [...this.defs].sort(([a], [b]) => names.get(a)!.localeCompare(names.get(b)!))) {
      schemas[names.get(key)!] = mapRefs(def.schema, rename) as Json;
    }
    return { rename, schemas };
  }
}

/**
 * Removes noise zod adds: the ±2^53 bounds of every `.int()`, and, on the output side,
 * `additionalProperties: false` (the contract allows responses to gain fields).
 */
function tidy(json: Json, io: Io): void {
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  if (io === "output" && json.type === "object" && json.additionalProperties === false) delete json.additionalProperties;
}

// ---------------------------------------------------------------------------------------------
// The document

const DESCRIPTION = `REST API of Goodfund, an open-source fundraising platform.

- **Money** is always an integer number of cents (\`2500\` is 25.00); currency codes are lower-case ISO 4217 (\`usd\`).
- **Times** are ISO 8601 strings in UTC (\`2030-01-31T12:00:00.000Z\`).
- **Nullable fields** are JSON \`null\` when unset, never missing.
- **Errors** answer \`{ "error": string, "status": number, "details"? }\`; validation errors (400 \`Validation failed\`) add \`details: { fieldErrors: { [field]: string[] }, formErrors: string[] }\`, with dotted names for nested fields, and \`codes: { [field]: { code, ...values }[] }\`: one machine-readable code per message (\`""\` for form-level ones), such as \`{ "code": "too_small", "minimum": 100, "inclusive": true }\` or \`{ "code": "tickets_over_limit", "maximum": 10 }\`, for clients that phrase their own messages.
- **Authentication**: \`Authorization: Bearer <session JWT>\` (see the \`bearerAuth\` scheme); operations marked with no security are public.
- **Rate limits**: public operations 100 requests/minute per client IP, authenticated ones 600/minute per user (defaults). Rate-limited responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a 429 adds \`Retry-After\`.
- Every response carries \`X-Request-Id\` (a valid incoming \`X-Request-Id\` is echoed).
- Request bodies are JSON (\`Content-Type: application/json\`, otherwise 415) of at most 1 MiB (otherwise 413).`;

const HEADERS = {
  "X-Request-Id": { description: "Identifies the request in the server's logs; echoes a valid incoming X-Request-Id.", schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Requests allowed per window (one minute) for this caller.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "When the current window ends, in Unix seconds.", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
};

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

function responseHeaders(rateLimited: boolean, retryAfter = false): Json {
  const headers: Json = { "X-Request-Id": headerRef("X-Request-Id") };
  if (rateLimited) {
    headers["X-RateLimit-Limit"] = headerRef("X-RateLimit-Limit");
    headers["X-RateLimit-Remaining"] = headerRef("X-RateLimit-Remaining");
    headers["X-RateLimit-Reset"] = headerRef("X-RateLimit-Reset");
  }
  if (retryAfter) headers["Retry-After"] = headerRef("Retry-After");
  return headers;
}

function errorResponse(description: string, rateLimited: boolean, example: Json, retryAfter = false): Json {
  return {
    description,
    headers: responseHeaders(rateLimited, retryAfter),
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, example } },
  };
}

function operationObject(row: OperationRow, schemas: SchemaCollector): Json {
  const rateLimited = row.limit !== "none";
  const names = pathParamNames(row.file);
  const paramSchema = row.params ? schemas.convert(row.params, "input") : undefined;
  const paramProps = isObject(paramSchema?.properties) ? paramSchema.properties : {};
  const parameters: Json[] = names.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: isObject(paramProps[name]) ? paramProps[name] : { type: "string" },
  }));
  if (row.query) {
    const query = schemas.convert(row.query, "input");
    const required = Array.isArray(query.required) ? query.required : [];
    for (const [name, schema] of Object.entries(isObject(query.properties) ? query.properties : {})) {
      const { description, ...rest } = schema as Json;
      parameters.push({ name, in: "query", required: required.includes(name), ...(description ? { description } : {}), schema: rest });
    }
  }
  parameters.push({ $ref: "#/components/parameters/RequestId" });

  const op: Json = {
    operationId: row.operationId,
    summary: row.summary,
    tags: [row.tag],
  };
  const notes = [row.description, row.access === "public" || row.access === "user" || row.access === "cron" ? undefined : ROLE_TEXT[row.access]];
  const description = notes.filter(Boolean).join("\n\n");
  if (description) op.description = description;
  if (row.access === "public") op.security = [];
  if (row.access === "cron") op.security = [{ cronSecret: [] }];
  op.parameters = parameters;

  if (row.body) {
    const media: Json = { schema: schemas.convert(row.body, "input") };
    if (row.bodyExamples) media.examples = row.bodyExamples;
    op.requestBody = { required: true, content: { "application/json": media } };
  }

  const responses: Json = {};
  const mediaType = row.responseMediaType ?? "application/json";
  const successHeaders = responseHeaders(rateLimited);
  if (mediaType === "text/csv") {
    successHeaders["Content-Disposition"] = {
      description: "`attachment; filename=\"<name>.csv\"`: browsers save the body as a file.",
      schema: { type: "string" },
    };
  }
  responses[String(row.success)] = {
    description: row.responseDescription,
    headers: successHeaders,
    ...(row.response ? { content: { [mediaType]: { schema: schemas.convert(row.response, "output") } } } : {}),
  };
  if (row.body || row.query) {
    const what = row.body ? "Invalid JSON body, or the body" : "A query parameter";
    responses["400"] = errorResponse(`${what} failed validation (\`details\` lists the fields).`, rateLimited, {
      error: "Validation failed",
      status: 400,
      details: {
        fieldErrors: row.body ? { title: ["Required"] } : { limit: ["Number must be less than or equal to 100"] },
        formErrors: [],
        codes: row.body ? { title: [{ code: "invalid_type", expected: "string" }] } : { limit: [{ code: "too_big", origin: "number", maximum: 100, inclusive: true }] },
      },
    });
  }
  if (row.access !== "public") {
    const what = row.access === "cron" ? "Missing or wrong CRON_SECRET." : "Missing, expired or invalid session token.";
    responses["401"] = errorResponse(what, rateLimited, { error: "Unauthorized", status: 401 });
  }
  if (row.access !== "public" && row.access !== "user" && row.access !== "cron") {
    responses["403"] = errorResponse("The caller is not a member of the organization, or lacks the role.", rateLimited, {
      error: "Forbidden",
      status: 403,
    });
  }
  if (names.length > 0) {
    const text = row.notFound ?? "Not found";
    responses["404"] = errorResponse(`${text}.`, rateLimited, { error: text.split(",")[0], status: 404 });
  }
  if (row.conflicts?.length) {
    responses["409"] = errorResponse(`Conflict: ${row.conflicts.map((c) => `"${c}"`).join("; ")}.`, rateLimited, {
      error: row.conflicts[0],
      status: 409,
    });
  }
  if (row.body) {
    responses["413"] = errorResponse("Body larger than 1 MiB.", rateLimited, { error: "Request body too large (limit 1 MiB)", status: 413 });
    responses["415"] = errorResponse("Content-Type is not application/json.", rateLimited, {
      error: "Content-Type must be application/json",
      status: 415,
    });
  }
  if (rateLimited) {
    responses["429"] = errorResponse("Rate limit exceeded.", true, { error: "Too many requests", status: 429 }, true);
  }
  responses["500"] = errorResponse("Unexpected failure (never a stack trace).", rateLimited, { error: "Internal server error", status: 500 });
  responses["503"] = errorResponse("The database cannot be reached; retry later.", rateLimited, { error: "Service unavailable", status: 503 }, true);
  op.responses = responses;
  return op;
}

function build(): Json {
  const schemas = new SchemaCollector();
  // The Error component every error response references.
  schemas.convert(errorSchema, "output");

  const paths: Record<string, Json> = {};
  const ids = new Set<string>();
  for (const row of OPERATIONS) {
    if (ids.has(row.operationId)) throw new Error(`OpenAPI: duplicate operationId ${row.operationId}`);
    ids.add(row.operationId);
    const path = openApiPath(row.file);
    const item = (paths[path] ??= {});
    item[row.method.toLowerCase()] = operationObject(row, schemas);
  }

  const { rename, schemas: componentSchemas } = schemas.finish();
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Goodfund API",
      version: pkg.version,
      description: DESCRIPTION,
      license: { name: "MIT", identifier: "MIT" },
    },
    tags: TAGS,
    security: [{ bearerAuth: [] }],
    paths: mapRefs(paths, rename),
    components: {
      schemas: componentSchemas,
      securitySchemes: {
        cronSecret: { type: "http", scheme: "bearer", description: "The CRON_SECRET environment variable, for scheduled callers." },
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "The next-auth session JWT (the dashboard's session cookie holds the same token). " +
            "Get one with `npm run token -- --email you@example.org`.",
        },
      },
      headers: HEADERS,
      parameters: {
        RequestId: {
          name: "X-Request-Id",
          in: "header",
          required: false,
          description: "Your own request ID (1–128 of letters, digits, `_.:-`), echoed in the response and the server's logs.",
          schema: { type: "string", pattern: "^[\\w.:-]{1,128}$" },
        },
      },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

let cached: Json | undefined;

/** The OpenAPI 3.1 document, built on first use and shared (frozen) afterwards. */
export function buildOpenApiDocument(): object {
  cached ??= deepFreeze(build());
  return cached;
}
