import http from "node:http";

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * One HTTP request exactly as given: the path sent as written (a URL would resolve its dot
 * segments first) and only these headers (fetch adds its own Accept-Encoding and decompresses);
 * the body as the bytes that arrived.
 */
export function rawRequest(
  base: string,
  path: string,
  o: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method: o.method ?? "GET", headers: o.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}
