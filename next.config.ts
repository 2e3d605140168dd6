import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WASM and data files from its package directory; bundling it breaks that
  // (pdfkit likewise reads its font and colour-profile files next to its own code).
  // prom-client keeps its registry in its module: the server (server/metrics.ts) and the routes
  // must load the one copy from node_modules to count into the same registry.
  // The OpenTelemetry SDK likewise, loaded once from node_modules.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "ioredis",
    "pdfkit",
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
  ],
  poweredByHeader: false,
  // The server compresses what Next.js serves, in Brotli or gzip (server/main.ts); Next.js's own
  // compression would only do gzip, and twice would be waste.
  compress: false,
  // `npm run build` type-checks the app (tests and scripts are checked by `npm run typecheck`).
  // The build `npm start` and the test suites make when the sources changed
  // (scripts/build-if-needed.mjs) skips that half minute: CI runs `npm run typecheck` on every
  // change, and a first start should not wait for it.
  typescript: { tsconfigPath: "tsconfig.build.json", ignoreBuildErrors: process.env.GOODFUND_BUILD_TYPECHECK === "skip" },
  typedRoutes: false,
  // The browser's "zod" sets zod's jitless option first (components/zod/browser.ts).
  turbopack: { resolveAlias: { zod: { browser: "./components/zod/browser.ts" } } },
  experimental: {
    // Each page's CSS in <style> tags in its HTML rather than stylesheets it must wait for: the
    // donate page paints from its first response, with no round trip for a stylesheet first. Our
    // pages' CSS is small enough to travel in every document (bench/README.md, "Pages").
    inlineCss: true,
  },
  // On every response, static files included (the values of BASE_SECURITY_HEADERS in
  // lib/security/headers.ts, which this file cannot import at run time); pages and the API set
  // theirs in proxy.ts and lib/api/route.ts.
  async headers() {
    const headers = [
      { key: "X-Content-Type-Options", value: "nosniff" },
      { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    ];
    return [{ source: "/:path*", headers }];
  },
};

export default nextConfig;
