// `npm run lint`: Next's Core Web Vitals and TypeScript rules, and no import cycles.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.json" } },
      // Dependencies are not part of any cycle of ours; don't parse them.
      "import/ignore": ["node_modules"],
    },
    rules: {
      // Two modules that import each other (directly or round a longer loop) load in an order
      // that depends on who imports first; keep the layers pointing one way.
      "import/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    // Tests and scripts talk to loosely typed things (JSON bodies, child processes).
    files: ["tests/**", "scripts/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      // Playwright fixtures call `use(...)`, which is not React's hook.
      "react-hooks/rules-of-hooks": "off",
    },
  },
  globalIgnores([
    ".next/**",
    "node_modules/**",
    "test-results/**",
    "playwright-report/**",
    ".data/**",
    "next-env.d.ts",
    "db/migrations/**",
    "sdk/typescript/dist/**",
    "sdk/typescript/src/schema.ts",
  ]),
]);
