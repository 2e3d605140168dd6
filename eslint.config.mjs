// `npm run lint`: Next's Core Web Vitals and TypeScript rules, no import cycles, and the layers.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/*
 * The layers (README, "Layout"), top to bottom. A file may import its own layer and the layers
 * below it, never one above: each layer is a zone of `import/no-restricted-paths` whose `from` is
 * every layer above it. Tests may import anything.
 */
const LAYERS = [
  {
    name: "app",
    paths: ["./app", "./proxy.ts", "./instrumentation.ts", "./instrumentation-client.ts", "./server", "./scripts", "./bench"],
  },
  { name: "components", paths: ["./components"] },
  { name: "jobs and demo", paths: ["./lib/jobs", "./lib/demo"] },
  { name: "api and auth", paths: ["./lib/api", "./lib/auth"] },
  { name: "services", paths: ["./lib/services"] },
  {
    // What the services call: the adapters, and the stores they keep state in.
    name: "adapters",
    paths: [
      "./lib/processor",
      "./lib/email",
      "./emails",
      "./lib/webhooks-out",
      "./lib/outbox",
      "./lib/cache",
      "./lib/hosted-urls",
      "./lib/ratelimit",
    ],
  },
  { name: "schemas", paths: ["./lib/schemas", "./lib/i18n"] },
  { name: "db", paths: ["./db"] },
];
/** Small modules every layer shares (env, errors, money, roles…): they may read db/schema's types, nothing higher. */
const LEAVES = ["./lib/*.ts", "./lib/crypto", "./lib/security", "./lib/embed"];

const above = (i) => LAYERS.slice(0, i);
const pathsOf = (layers) => layers.flatMap((layer) => layer.paths);
const namesOf = (layers) => layers.map((layer) => layer.name).join(", ");
/** Nothing in layer `i` imports a layer above it. */
const zoneOf = (layer, i) => ({
  target: layer.paths,
  from: pathsOf(above(i)),
  message: `Layers point one way (README, "Layout"): the ${layer.name} layer imports none of the layers above it (${namesOf(above(i))}).`,
});
const layerZones = [
  ...LAYERS.slice(1).map((layer, k) => zoneOf(layer, k + 1)),
  {
    target: LEAVES,
    from: pathsOf(above(LAYERS.length - 1)),
    message: `Layers point one way (README, "Layout"): lib/'s shared leaves import no layer but db (${namesOf(above(LAYERS.length - 1))} are above them).`,
  },
  {
    target: ["./components"],
    from: ["./db", "./lib/services", "./lib/api", "./lib/auth", "./lib/jobs", "./lib/demo"],
    message:
      "Components are UI: they import neither db/ nor lib/services (nor lib/api, lib/auth, lib/jobs, lib/demo); the page hands them their data.",
  },
];

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
      "import/no-restricted-paths": ["error", { zones: layerZones }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    // API code runs outside Next.js's request scope when a route declares `fastPath: true` (the
    // server serves it straight from node:http, server/fast-path.ts): it reads its request, never
    // `headers()`, `cookies()` or `after()`. Every route may become one, so the rule covers all
    // route code and what it calls.
    files: ["app/api/**", "lib/api/**", "lib/auth/**", "lib/services/**", "lib/processor/**", "db/**", "server/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "next/headers",
              message: "API code may run on the server's fast path, outside Next.js's request scope: read the request instead.",
            },
            {
              name: "next/server",
              importNames: ["after", "connection"],
              message: "API code may run on the server's fast path, outside Next.js's request scope: after() never runs there.",
            },
          ],
        },
      ],
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
