import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WASM and data files from its package directory; bundling it breaks that.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "ioredis"],
  poweredByHeader: false,
  // The production build type-checks the app only; tests and scripts are checked by `npm run typecheck`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  typedRoutes: false,
};

export default nextConfig;
