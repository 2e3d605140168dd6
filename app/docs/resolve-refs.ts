type Json = Record<string, unknown>;

const RESOLVED = ["parameters", "headers", "responses", "requestBodies", "examples"] as const;

/**
 * A copy of an OpenAPI document in which every local `$ref` to a reusable parameter, header,
 * response, request body or example (`#/components/parameters/RequestId`) is replaced by what it
 * names, so a page can render each in place. References to schemas stay: the reference links
 * them to its schema section.
 */
export function resolveRefs<T>(doc: T): T {
  const components = ((doc as Json).components ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const lookup = (ref: string, seen: readonly string[]): unknown => {
    const m = /^#\/components\/([^/]+)\/(.+)$/.exec(ref);
    if (!m || !(RESOLVED as readonly string[]).includes(m[1])) return undefined;
    if (seen.includes(ref)) throw new Error(`OpenAPI: circular reference ${ref}`);
    const name = m[2].replace(/~1/g, "/").replace(/~0/g, "~");
    const target = components[m[1]]?.[name];
    if (target === undefined) throw new Error(`OpenAPI: unresolved reference ${ref}`);
    return walk(target, [...seen, ref]);
  };
  const walk = (value: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, seen));
    if (value === null || typeof value !== "object") return value;
    const ref = (value as Json).$ref;
    if (typeof ref === "string") {
      const target = lookup(ref, seen);
      if (target !== undefined) return target;
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, seen)]));
  };
  return walk(doc, []) as T;
}
