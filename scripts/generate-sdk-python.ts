// The Python SDK's generated modules, written from the API's OpenAPI document by
// `npm run sdk:generate` (scripts/generate-sdk-types.ts): `goodfund/models.py` (a TypedDict per
// schema) and `goodfund/_operations.py` (a method per operation, sync and async). Nothing here
// names an endpoint: every operation of the document becomes a method, so new routes need only
// a regeneration. Python's own generators (openapi-python-client, datamodel-code-generator) are
// not installable from the registries this project can reach; see sdk/python/README.md.

/** The parts of JSON Schema (OpenAPI 3.1 dialect) the document uses. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

type Parameter = {
  $ref?: string;
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
};
type MediaTypes = Record<string, { schema?: JsonSchema }>;
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: MediaTypes };
  responses?: Record<string, { content?: MediaTypes }>;
};
type Method = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
/** A path's operations, and the parameters all of them share. */
type PathItem = { parameters?: Parameter[] } & { [M in Method]?: Operation };
export type OpenApiDocument = {
  paths: Record<string, PathItem>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, Parameter> };
};

const HTTP_METHODS: readonly Method[] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Python's keywords: a parameter or field named like one is renamed (`from` → `from_`) or kept as a string key. */
const PY_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from global if " +
    "import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);
/** Names the hand-written clients define; an operation may not take them. */
const CLIENT_NAMES = new Set(["request", "close", "aclose", "base_url", "paginate", "apaginate"]);

const LINE = 100;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `idOrSlug` → `id_or_slug`, `X-Request-Id` → `x_request_id`, `listAPIKeys` → `list_api_keys`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}

/** `details` → `Details`, `event_types` → `EventTypes`. */
function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
}

/** A Python identifier for a wire name: snake_cased, keywords suffixed with `_`. */
function pyName(wire: string): string {
  let name = snakeCase(wire);
  if (!name || /^\d/.test(name)) name = `_${name}`;
  return PY_KEYWORDS.has(name) ? `${name}_` : name;
}

/** A Python string literal (JSON's escapes are Python's). */
const pyStr = (s: string) => JSON.stringify(s);

function pyLiteral(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return pyStr(v);
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  throw new Error(`The Python generator has no literal for ${JSON.stringify(v)}`);
}

/** `text` wrapped to `width` columns, paragraphs (blank lines) kept. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  const paragraphs = text.trim().split(/\n\s*\n/);
  paragraphs.forEach((paragraph, i) => {
    if (i > 0) out.push("");
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    if (line) out.push(line);
  });
  return out;
}

/** A docstring at `indent`, its text escaped for a triple-quoted string. */
function docstring(text: string, indent: string): string[] {
  const safe = text.replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
  const lines = wrap(safe, LINE - indent.length - 6);
  if (lines.length === 1 && !lines[0].endsWith('"')) return [`${indent}"""${lines[0]}"""`];
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((l) => (l ? `${indent}${l}` : "")), `${indent}"""`];
}

function comment(text: string, indent: string): string[] {
  return wrap(text, LINE - indent.length - 2).map((l) => (l ? `${indent}# ${l}` : `${indent}#`));
}

/** Where the bracket opened at `open` closes. */
function closing(text: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && text[i - 1] !== "\\") quoted = !quoted;
    if (quoted) continue;
    if (c === "[" || c === "(" || c === "{") depth++;
    if (c === "]" || c === ")" || c === "}") depth--;
    if (depth === 0) return i;
  }
  throw new Error(`Unbalanced brackets in ${text}`);
}

/** The top-level comma-separated parts of `text`. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[" || c === "(" || c === "{" || c === '"') i = c === '"' ? text.indexOf('"', i + 1) : closing(text, i);
    else if (c === ",") {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

/**
 * `head + type + tail` at `indent`, on one line when it fits, else with the first bracket that
 * lists several things (`Literal[...]`) opened one item a line, as black lays them out.
 */
function typeLines(indent: string, head: string, type: string, tail: string): string[] {
  const one = `${indent}${head}${type}${tail}`;
  if (one.length <= LINE) return [one];
  for (let open = type.indexOf("["); open !== -1; open = type.indexOf("[", open + 1)) {
    const close = closing(type, open);
    const items = topLevelParts(type.slice(open + 1, close));
    if (items.length < 2) continue;
    return [
      `${indent}${head}${type.slice(0, open + 1)}`,
      ...items.flatMap((item) => typeLines(`${indent}    `, "", item, ",")),
      `${indent}${type.slice(close)}${tail}`,
    ];
  }
  return [one];
}

function refName(ref: string): string {
  const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
  if (!m) throw new Error(`The Python generator follows only schema references, not ${ref}`);
  return m[1];
}

/**
 * A model's name inside a type expression, marked so that models.py can write it bare and
 * _operations.py as \`models.Name\` (see \`render\`).
 */
const modelRef = (name: string) => `⟨${name}⟩`;

/** A type expression as written in a module: models bare (`prefix` "") or qualified ("models."). */
const render = (type: string, prefix: string) => type.replace(/⟨(\w+)⟩/g, `${prefix}$1`);

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("Any")) return "Any";
  // Literals merge into one, and None goes last, as people write them.
  const literals = unique.filter((t) => t.startsWith("Literal["));
  const rest = unique.filter((t) => !t.startsWith("Literal[") && t !== "None");
  const merged = literals.length > 1 ? [`Literal[${literals.map((l) => l.slice(8, -1)).join(", ")}]`] : literals;
  const all = [...merged, ...rest, ...(unique.includes("None") ? ["None"] : [])];
  return all.join(" | ");
}

type TypedDictField = { wire: string; type: string; required: boolean; description?: string };
type TypedDictModel = { kind: "typeddict"; name: string; description?: string; fields: TypedDictField[]; extraKeys: boolean };
type AliasModel = { kind: "alias"; name: string; description?: string; type: string; uses: string[] };
type Model = TypedDictModel | AliasModel;

/**
 * Turns schemas into Python types, collecting the TypedDicts (and aliases) they need. Inline
 * objects get a name from where they sit: `Error.details` → `ErrorDetails`.
 */
class ModelBuilder {
  readonly models: Model[] = [];
  private readonly taken = new Set<string>();

  constructor(private readonly schemas: Record<string, JsonSchema>) {
    for (const name of Object.keys(schemas)) this.taken.add(name);
  }

  /** Every component schema, in the document's order. */
  addComponents(): void {
    for (const [name, schema] of Object.entries(this.schemas)) {
      if (this.isTypedDict(schema)) this.addTypedDict(name, schema);
      else {
        const uses: string[] = [];
        const type = this.typeOf(schema, name, uses);
        this.models.push({ kind: "alias", name, description: schema.description, type, uses });
      }
    }
  }

  /** The item type of a list answer (`{ data: [...], pagination }`), or undefined for any other type. */
  listItemOf(type: string): string | undefined {
    const name = /^⟨(\w+)⟩$/.exec(type)?.[1];
    const model = this.models.find((m): m is TypedDictModel => m.kind === "typeddict" && m.name === name);
    const data = model?.fields.find((f) => f.wire === "data" && f.required);
    if (!data || !model?.fields.some((f) => f.wire === "pagination")) return undefined;
    return /^list\[(.+)\]$/.exec(data.type)?.[1];
  }

  private isTypedDict(schema: JsonSchema): boolean {
    if (schema.allOf) return schema.allOf.every((s) => this.isTypedDict(s.$ref ? this.schemas[refName(s.$ref)] : s));
    return this.types(schema).includes("object") && schema.properties !== undefined;
  }

  private types(schema: JsonSchema): string[] {
    return schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  }

  /** A name for an inline object not yet used: `hint`, else `hint2`, `hint3`... */
  private freshName(hint: string): string {
    let name = hint;
    for (let i = 2; this.taken.has(name); i++) name = `${hint}${i}`;
    this.taken.add(name);
    return name;
  }

  /** Merged properties of an object schema, through `allOf` and its references. */
  private objectParts(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string>; extraKeys: boolean } {
    if (schema.allOf) {
      const parts = schema.allOf.map((s) => this.objectParts(s.$ref ? this.schemas[refName(s.$ref)] : s));
      return {
        properties: Object.assign({}, ...parts.map((p) => p.properties)),
        required: new Set(parts.flatMap((p) => [...p.required])),
        extraKeys: parts.some((p) => p.extraKeys),
      };
    }
    return {
      properties: schema.properties ?? {},
      required: new Set(schema.required ?? []),
      extraKeys: schema.additionalProperties !== undefined && schema.additionalProperties !== false,
    };
  }

  addTypedDict(name: string, schema: JsonSchema, fallbackDescription?: string): string {
    const { properties, required, extraKeys } = this.objectParts(schema);
    const model: TypedDictModel = {
      kind: "typeddict",
      name,
      description: schema.description ?? fallbackDescription,
      fields: [],
      extraKeys,
    };
    // Inline classes this one uses are listed before it, so the file reads bottom-up from its parts.
    for (const [wire, prop] of Object.entries(properties)) {
      model.fields.push({
        wire,
        type: this.typeOf(prop, `${name}${pascalCase(wire)}`, []),
        required: required.has(wire),
        description: prop.description,
      });
    }
    this.models.push(model);
    return name;
  }

  /** The Python type of `schema`; `hint` names an inline object; `uses` collects the model names referred to. */
  typeOf(schema: JsonSchema | undefined, hint: string, uses: string[]): string {
    if (!schema || Object.keys(schema).filter((k) => k !== "description").length === 0) return "Any";
    if (schema.$ref) {
      const name = refName(schema.$ref);
      uses.push(name);
      return modelRef(name);
    }
    if (schema.const !== undefined) return `Literal[${pyLiteral(schema.const)}]`;
    if (schema.enum) {
      const values = schema.enum.filter((v) => v !== null);
      const literal = values.length ? [`Literal[${values.map(pyLiteral).join(", ")}]`] : [];
      return union([...literal, ...(schema.enum.includes(null) ? ["None"] : [])]);
    }
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) {
      // `X | null` keeps the hint; real alternatives are numbered (`Hint1`, `Hint2`).
      const real = alternatives.filter((s) => !(s.type === "null" && Object.keys(s).length === 1));
      return union(alternatives.map((s) => this.typeOf(s, real.length > 1 ? `${hint}${real.indexOf(s) + 1}` : hint, uses)));
    }
    if (schema.allOf) {
      if (schema.allOf.length === 1) return this.typeOf(schema.allOf[0], hint, uses);
      if (this.isTypedDict(schema)) return modelRef(this.addTypedDict(this.freshName(hint), schema));
      return "Any";
    }
    const types = this.types(schema);
    if (types.length === 0) return "Any";
    return union(types.map((t) => this.primitive(t, schema, hint, uses)));
  }

  private primitive(type: string, schema: JsonSchema, hint: string, uses: string[]): string {
    switch (type) {
      case "string":
        return schema.format === "binary" ? "bytes" : "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return `list[${this.typeOf(schema.items, `${hint}Item`, uses)}]`;
      case "object": {
        if (schema.properties) {
          const name = this.freshName(hint);
          uses.push(name);
          return modelRef(this.addTypedDict(name, schema));
        }
        const extra = schema.additionalProperties;
        return `dict[str, ${typeof extra === "object" ? this.typeOf(extra, `${hint}Value`, uses) : "Any"}]`;
      }
      default:
        return "Any";
    }
  }
}

/** A TypedDict's Python source: class syntax, or the functional form when a key is no identifier. */
function renderTypedDict(model: TypedDictModel): string[] {
  const fieldType = (f: TypedDictField) => (f.required ? render(f.type, "") : `NotRequired[${render(f.type, "")}]`);
  const doc = [
    ...(model.description ? [model.description] : []),
    ...(model.extraKeys ? ["Other keys may ride along; their names are not fixed by the schema."] : []),
  ].join("\n\n");
  if (model.fields.every((f) => IDENT.test(f.wire) && !PY_KEYWORDS.has(f.wire))) {
    const lines = [`class ${model.name}(TypedDict):`];
    if (doc) lines.push(...docstring(doc, "    "));
    for (const f of model.fields) {
      if (f.description) lines.push(...comment(f.description, "    "));
      lines.push(...typeLines("    ", `${f.wire}: `, fieldType(f), ""));
    }
    if (!doc && model.fields.length === 0) lines.push("    pass");
    return lines;
  }
  // Keys such as `from` can't be class attributes. Values are evaluated here, so they are quoted
  // (forward references) like the class form's annotations.
  const lines = [...(doc ? comment(doc, "") : []), `${model.name} = TypedDict(`, `    ${pyStr(model.name)},`, "    {"];
  for (const f of model.fields) {
    if (f.description) lines.push(...comment(f.description, "        "));
    lines.push(`        ${pyStr(f.wire)}: ${pyStr(fieldType(f))},`);
  }
  lines.push("    },", ")");
  return lines;
}

/** Aliases come after every class (their values are evaluated at import), each after those it names. */
function orderedAliases(models: Model[]): AliasModel[] {
  const aliases = new Map(models.filter((m): m is AliasModel => m.kind === "alias").map((m) => [m.name, m]));
  const out: AliasModel[] = [];
  const seen = new Set<string>();
  const visit = (m: AliasModel) => {
    if (seen.has(m.name)) return;
    seen.add(m.name);
    for (const used of m.uses) {
      const dep = aliases.get(used);
      if (dep) visit(dep);
    }
    out.push(m);
  };
  for (const m of aliases.values()) visit(m);
  return out;
}

const MODELS_HEADER = `# Generated by \`npm run sdk:generate\` (scripts/generate-sdk-python.ts) from the API's OpenAPI
# document; do not edit.
"""The API's objects as TypedDicts: what the client's methods take and answer are plain dicts of
these shapes (JSON names, money in integer minor units such as cents)."""

from __future__ import annotations

import sys
from typing import Any, Literal

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:
    from typing_extensions import NotRequired, TypedDict
`;

type PyParam = { wire: string; py: string; location: "path" | "query" | "header"; required: boolean; type: string };

type PyOperation = {
  method: string;
  path: string;
  name: string;
  summary: string;
  description?: string;
  params: PyParam[];
  body?: { type: string; required: boolean };
  result: string;
  /** For lists paged by `cursor` or `page`: the iterator method's name and its item type. */
  iterator?: { name: string; item: string; position: "cursor" | "page" };
};

/** The success answer's type: JSON of the first 2xx with content, text for `text/*`, bytes for others, None without a body. */
function resultType(op: Operation, builder: ModelBuilder, opName: string): { result: string; listItem?: string } {
  const success = Object.entries(op.responses ?? {})
    .filter(([status]) => /^2\d\d$/.test(status))
    .sort(([a], [b]) => Number(a) - Number(b));
  for (const [, response] of success) {
    const content = response.content ?? {};
    const json = Object.entries(content).find(([type]) => type === "application/json" || type.endsWith("+json"));
    if (json) {
      const result = builder.typeOf(json[1].schema, `${opName}Response`, []);
      return { result, listItem: builder.listItemOf(result) };
    }
    const types = Object.keys(content);
    if (types.length > 0) return { result: types.every((t) => t.startsWith("text/")) ? "str" : "bytes" };
  }
  return { result: "None" };
}

function collectOperations(doc: OpenApiDocument, builder: ModelBuilder): PyOperation[] {
  const sharedParams = doc.components?.parameters ?? {};
  const resolve = (p: Parameter): Parameter => {
    if (!p.$ref) return p;
    const name = /^#\/components\/parameters\/(.+)$/.exec(p.$ref)?.[1];
    const found = name ? sharedParams[name] : undefined;
    if (!found) throw new Error(`Unresolved parameter ${p.$ref}`);
    return found;
  };
  const ops: PyOperation[] = [];
  const names = new Set<string>();
  const claim = (name: string, where: string) => {
    if (names.has(name) || CLIENT_NAMES.has(name)) throw new Error(`Two methods of the Python SDK would be named ${name} (${where})`);
    names.add(name);
  };

  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!op.operationId) throw new Error(`${where} has no operationId`);
      const name = pyName(op.operationId);
      claim(name, where);
      const opPascal = pascalCase(op.operationId);

      const params: PyParam[] = [];
      // The path's shared parameters, unless the operation declares its own of the same name.
      const own = (op.parameters ?? []).map(resolve);
      const shared = (item.parameters ?? []).map(resolve).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
      for (const p of [...shared, ...own]) {
        if (p.in === "cookie") continue;
        // Header names lose their `X-` (X-Request-Id → request_id).
        const py = pyName(p.in === "header" ? p.name.replace(/^x-/i, "") : p.name);
        params.push({
          wire: p.name,
          py,
          location: p.in,
          required: p.in === "path" || !!p.required,
          type: builder.typeOf(p.schema, `${opPascal}${pascalCase(p.name)}`, []),
        });
      }
      // Path parameters in the order the path names them.
      const order = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      params.sort((a, b) => (a.location === "path" && b.location === "path" ? order.indexOf(a.wire) - order.indexOf(b.wire) : 0));
      for (const wire of order)
        if (!params.some((p) => p.location === "path" && p.wire === wire)) throw new Error(`${where}: {${wire}} is not declared`);

      let body: PyOperation["body"];
      const bodyContent = op.requestBody?.content ?? {};
      const jsonBody = Object.entries(bodyContent).find(([type]) => type === "application/json");
      if (op.requestBody) {
        const type = jsonBody ? builder.typeOf(jsonBody[1].schema, `${opPascal}Body`, []) : "Any";
        body = { type, required: !!op.requestBody.required };
      }
      const taken = new Set<string>(["self", ...(body ? ["body"] : [])]);
      for (const p of params) {
        if (taken.has(p.py)) throw new Error(`${where}: two parameters would be named ${p.py} in Python`);
        taken.add(p.py);
      }

      const { result, listItem } = resultType(op, builder, opPascal);
      const query = new Set(params.filter((p) => p.location === "query").map((p) => p.wire));
      const position = query.has("cursor") ? "cursor" : query.has("page") ? "page" : undefined;
      let iterator: PyOperation["iterator"];
      if (listItem && position) {
        const iterName = `iter_${pyName(op.operationId.replace(/^list(?=[A-Z])/, ""))}`;
        claim(iterName, where);
        iterator = { name: iterName, item: listItem, position };
      }
      ops.push({
        method: method.toUpperCase(),
        path,
        name,
        summary: op.summary ?? op.operationId,
        description:
          [op.deprecated ? "Deprecated: it may be removed in a later version." : "", op.description ?? ""].filter(Boolean).join("\n\n") ||
          undefined,
        params,
        body,
        result,
        iterator,
      });
    }
  }
  return ops;
}

/** `def name(args) -> ret:` on one line when it fits, else one argument a line (black's layout). */
function signature(indent: string, prefix: string, args: string[], returns: string): string[] {
  const one = `${indent}${prefix}(${args.join(", ")}) -> ${returns}:`;
  if (one.length <= LINE) return [one];
  const argLines = args.flatMap((a) => {
    const m = /^(\w+: )(.*?)( = None)?$/.exec(a);
    return m ? typeLines(`${indent}    `, m[1], m[2], `${m[3] ?? ""},`) : [`${indent}    ${a},`];
  });
  return [`${indent}${prefix}(`, ...argLines, `${indent}) -> ${returns}:`];
}

/**
 * The path as a Python expression: an f-string with each parameter URL-escaped, cut between
 * segments into adjacent literals when longer than a line.
 */
function pathExpression(path: string, pyNameOf: (wire: string) => string, width: number): string {
  const segments = path.split(/(?=\/)/).map((segment) => {
    const text = segment.replace(/\{([^}]+)\}/g, (_, wire: string) => `{_segment(${pyNameOf(wire)})}`);
    return { text, templated: text !== segment };
  });
  const pieces: { text: string; templated: boolean }[] = [];
  for (const seg of segments) {
    const last = pieces[pieces.length - 1];
    if (last && last.text.length + seg.text.length + 3 <= width) {
      last.text += seg.text;
      last.templated ||= seg.templated;
    } else pieces.push({ ...seg });
  }
  return pieces.map((p) => `${p.templated ? "f" : ""}${pyStr(p.text)}`).join("\n");
}

/** A call `head(args)` as a statement, exploded one argument a line when it does not fit. */
function call(indent: string, head: string, args: string[]): string[] {
  const one = `${indent}${head}(${args.join(", ")})`;
  if (one.length <= LINE && !args.some((a) => a.includes("\n"))) return [one];
  return [`${indent}${head}(`, ...args.map((a) => `${indent}    ${a.replace(/\n/g, `\n${indent}    `)},`), `${indent})`];
}

/** `{"a": a, "b": b}`, on one line or one entry a line. */
function dict(entries: [string, string][], indent: string): string {
  const one = `{${entries.map(([k, v]) => `${pyStr(k)}: ${v}`).join(", ")}}`;
  if (indent.length + 12 + one.length <= LINE) return one;
  return `{\n${entries.map(([k, v]) => `    ${pyStr(k)}: ${v},`).join("\n")}\n}`;
}

function renderOperation(op: PyOperation, isAsync: boolean): string[] {
  const q = (t: string) => render(t, "models.");
  const optional = (t: string) => (t === "Any" || t.split(" | ").includes("None") ? t : `${t} | None`);
  const pathParams = op.params.filter((p) => p.location === "path");
  const others = op.params.filter((p) => p.location !== "path");
  const args = ["self", ...pathParams.map((p) => `${p.py}: ${q(p.type)}`)];
  if (op.body?.required) args.push(`body: ${q(op.body.type)}`);
  const keywords = [
    ...(op.body && !op.body.required ? [`body: ${optional(q(op.body.type))} = None`] : []),
    ...others.filter((p) => p.required).map((p) => `${p.py}: ${q(p.type)}`),
    ...others.filter((p) => !p.required).map((p) => `${p.py}: ${optional(q(p.type))} = None`),
  ];
  if (keywords.length) args.push("*", ...keywords);

  const indent = "    ";
  const lines: string[] = [];
  const returns = q(op.result);
  lines.push(...signature(indent, `${isAsync ? "async " : ""}def ${op.name}`, args, returns));
  const doc = [`${op.summary.replace(/\.?$/, ".")}`, `\`\`${op.method} ${op.path}\`\``, ...(op.description ? [op.description] : [])];
  lines.push(...docstring(doc.join("\n\n"), `${indent}    `));

  const pathExpr = pathExpression(op.path, (wire) => pathParams.find((p) => p.wire === wire)!.py, LINE - indent.length - 10);
  const callArgs = [pyStr(op.method), pathExpr];
  if (op.body) callArgs.push(`json=body`);
  const query = others.filter((p) => p.location === "query");
  if (query.length)
    callArgs.push(
      `params=${dict(
        query.map((p) => [p.wire, p.py]),
        `${indent}        `,
      )}`,
    );
  const headers = others.filter((p) => p.location === "header");
  if (headers.length)
    callArgs.push(
      `headers=${dict(
        headers.map((p) => [p.wire, p.py]),
        `${indent}        `,
      )}`,
    );
  // `request` answers Any; the annotated name gives the answer its type (no cast needed).
  const send = `${isAsync ? "await " : ""}self.request`;
  if (op.result === "None") lines.push(...call(`${indent}    `, send, callArgs));
  else lines.push(...call(`${indent}    `, `answer: ${returns} = ${send}`, callArgs), `${indent}    return answer`);

  if (op.iterator) {
    const it = op.iterator;
    const iterParams = op.params.filter((p) => p.wire !== it.position || p.location !== "query");
    const iterPath = iterParams.filter((p) => p.location === "path");
    const iterOthers = iterParams.filter((p) => p.location !== "path");
    const iterArgs = ["self", ...iterPath.map((p) => `${p.py}: ${q(p.type)}`)];
    const iterKeywords = [
      ...iterOthers.filter((p) => p.required).map((p) => `${p.py}: ${q(p.type)}`),
      ...iterOthers.filter((p) => !p.required).map((p) => `${p.py}: ${optional(q(p.type))} = None`),
    ];
    if (iterKeywords.length) iterArgs.push("*", ...iterKeywords);
    const item = q(it.item);
    lines.push("");
    lines.push(...signature(indent, `def ${it.name}`, iterArgs, `${isAsync ? "AsyncIterator" : "Iterator"}[${item}]`));
    const how = it.position === "cursor" ? "cursor after cursor" : "page after page";
    lines.push(
      ...docstring(
        `Every item of \`\`${op.name}\`\`, fetching ${how} as the loop asks for more (\`\`${isAsync ? "async for" : "for"}\`\`); ` +
          "an error answer raises ApiError.",
        `${indent}    `,
      ),
    );
    const forwarded = [...iterPath.map((p) => p.py), ...iterOthers.map((p) => `${p.py}=${p.py}`), "**position"];
    const lambda = `lambda **position: self.${op.name}(${forwarded.join(", ")})`;
    const oneLine = `${indent}    return ${isAsync ? "apaginate" : "paginate"}(${lambda})`;
    if (oneLine.length <= LINE) lines.push(oneLine);
    else {
      lines.push(`${indent}    return ${isAsync ? "apaginate" : "paginate"}(`);
      const inner = `${indent}        lambda **position: self.${op.name}(${forwarded.join(", ")})`;
      if (inner.length <= LINE) lines.push(inner);
      else
        lines.push(
          `${indent}        lambda **position: self.${op.name}(`,
          ...forwarded.map((f) => `${indent}            ${f},`),
          `${indent}        )`,
        );
      lines.push(`${indent}    )`);
    }
  }
  return lines;
}

const OPERATIONS_HEADER = `# Generated by \`npm run sdk:generate\` (scripts/generate-sdk-python.ts) from the API's OpenAPI
# document; do not edit.
"""One method per API operation, named after its operationId (\`listCampaigns\` → \`list_campaigns\`).
\`Goodfund\` and \`AsyncGoodfund\` inherit these and provide \`request\`."""

from __future__ import annotations

from typing import Any, AsyncIterator, Iterator, Literal
from urllib.parse import quote

from . import models
from ._pagination import apaginate, paginate


def _segment(value: object) -> str:
    """A path parameter as one URL path segment (\`/\` and \`?\` escaped)."""
    return quote(str(value), safe="")
`;

/** The two generated modules of the Python SDK, as their files should read. */
export function generatePythonSdk(doc: OpenApiDocument): { models: string; operations: string } {
  const builder = new ModelBuilder(doc.components?.schemas ?? {});
  builder.addComponents();
  const componentCount = builder.models.length;
  const ops = collectOperations(doc, builder);

  const classes = builder.models.filter((m): m is TypedDictModel => m.kind === "typeddict");
  const blocks: string[][] = [];
  const operationModels = new Set(builder.models.slice(componentCount).map((m) => m.name));
  let announced = false;
  for (const m of classes) {
    if (operationModels.has(m.name) && !announced) {
      announced = true;
      blocks.push(["# Bodies and answers declared inline by operations."]);
    }
    blocks.push(renderTypedDict(m));
  }
  for (const alias of orderedAliases(builder.models)) {
    blocks.push([...(alias.description ? comment(alias.description, "") : []), `${alias.name} = ${render(alias.type, "")}`]);
  }
  const models = `${MODELS_HEADER}\n\n${blocks.map((b) => b.join("\n")).join("\n\n\n")}\n`;

  const klass = (isAsync: boolean) => {
    const name = isAsync ? "AsyncOperations" : "Operations";
    const lines = [
      `class ${name}:`,
      ...docstring(`The API's operations, ${isAsync ? "awaitable" : "blocking"}; each sends its request through \`\`request\`\`.`, "    "),
      "",
      ...(isAsync
        ? [
            "    async def request(",
            "        self,",
            "        method: str,",
            "        path: str,",
            "        json: Any = None,",
            "        params: dict[str, Any] | None = None,",
            "        *,",
            "        headers: dict[str, str | None] | None = None,",
            "    ) -> Any:",
          ]
        : [
            "    def request(",
            "        self,",
            "        method: str,",
            "        path: str,",
            "        json: Any = None,",
            "        params: dict[str, Any] | None = None,",
            "        *,",
            "        headers: dict[str, str | None] | None = None,",
            "    ) -> Any:",
          ]),
      "        raise NotImplementedError",
    ];
    for (const op of ops) lines.push("", ...renderOperation(op, isAsync));
    return lines.join("\n");
  };
  const operations = `${OPERATIONS_HEADER}\n\n${klass(false)}\n\n\n${klass(true)}\n`;
  return { models, operations };
}
