// The house's lint: which floor may import which (import-x/no-restricted-paths on resolved files), no relative
// import into another package, and a small set of correctness rules. Formatting is Prettier's (`pnpm format:check`).
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

const folders = (parent) =>
  readdirSync(new URL(`./${parent}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const services = folders("services");
const libraries = folders("packages").filter((name) => name !== "testkit");

// Floors, bottom to top: packages/* (contracts, service-kit, testkit, ...), then gateway and services/*, then cli,
// e2e and bench. A file imports only from its own floor's package or from below. Tests may use the harnesses
// (testkit, e2e); production code (any src/) may not.
const zones = [
  {
    target: "./packages",
    from: ["./gateway", "./services", "./cli", "./e2e", "./bench"],
    message: "packages/ import nothing above them (gateway, services, cli, e2e, bench).",
  },
  {
    target: "./gateway/src",
    from: ["./services", "./cli", "./e2e", "./bench"],
    message: "gateway/src imports no service and nothing above it; the gateway meets services over the bus.",
  },
  ...services.map((name) => ({
    target: `./services/${name}/src`,
    from: ["./gateway", "./services", "./cli", "./e2e", "./bench"],
    except: [`./${name}`],
    message: "services/*/src import neither the gateway, another service, nor anything above them.",
  })),
  // a service's domain owns the shapes of its settings; config.ts (the environment) fills them, never the reverse
  ...services.map((name) => ({
    target: `./services/${name}/src/domain`,
    from: [`./services/${name}/src/config.ts`],
    message: "services/*/src/domain does not import config.ts: declare the settings' shape in the domain and let config.ts fill it.",
  })),
  {
    target: [
      ...libraries.map((name) => `./packages/${name}/src`),
      "./gateway/src",
      ...services.map((name) => `./services/${name}/src`),
      "./cli/src",
    ],
    from: ["./packages/testkit", "./e2e"],
    message: "production code does not import the test harnesses (@bancada/testkit, @bancada/e2e).",
  },
  {
    target: ["./packages", "./gateway", "./services", "./cli", "./e2e"],
    from: ["./bench"],
    message: "nothing imports the benchmarks.",
  },
];

// The same floors by package name, so that an import the resolver cannot follow (a package not declared in the
// importer's manifest) is refused too.
const upper = {
  gateway: "@bancada/gateway",
  services: services.map((name) => `@bancada/${name}`),
  top: ["@bancada/cli", "@bancada/e2e", "@bancada/bench"],
};
const refuse = (names, message) => [
  "error",
  { paths: names.map((name) => ({ name, message })), patterns: [{ group: names.map((name) => `${name}/*`), message }] },
];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.turbo/**",
      "**/.data/**",
      "**/src/db/generated/**",
      "packages/prisma-engine/**/*.d.mts",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,mts,cts,js,mjs,cjs}"],
    plugins: { "import-x": importX },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        queueMicrotask: "readonly",
        structuredClone: "readonly",
        fetch: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        performance: "readonly",
        WebAssembly: "readonly",
      },
    },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true, project: ["tsconfig.base.json"] })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones }],
      "import-x/no-relative-packages": "error",
      "import-x/no-self-import": "error",
      // `_name` marks a value left unused on purpose (a rest sibling dropped, a callback argument).
      "@typescript-eslint/no-unused-vars": [
        "warn",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // The input schemas match control characters on purpose, to refuse them.
      "no-control-regex": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
      "no-useless-assignment": "warn",
      "@typescript-eslint/triple-slash-reference": "off",
      "max-len": [
        "error",
        {
          code: 140,
          ignoreComments: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
        },
      ],
    },
  },
  {
    files: ["packages/**"],
    rules: { "no-restricted-imports": refuse([upper.gateway, ...upper.services, ...upper.top], "packages/ import nothing above them.") },
  },
  {
    files: ["gateway/src/**"],
    rules: {
      "no-restricted-imports": refuse(
        [...upper.services, ...upper.top, "@bancada/testkit"],
        "gateway/src imports no service, harness or top-floor package.",
      ),
    },
  },
  ...services.map((name) => ({
    files: [`services/${name}/src/**`],
    rules: {
      "no-restricted-imports": refuse(
        [upper.gateway, ...upper.services.filter((other) => other !== `@bancada/${name}`), ...upper.top, "@bancada/testkit"],
        "services/*/src import neither the gateway, another service, a harness nor a top-floor package.",
      ),
    },
  })),
  {
    // a package's other folders (scripts, tooling, config) are not tests: they import no harness either (a tool
    // that needs a whole stack belongs beside the tests, e.g. gateway/test/conformance)
    files: ["gateway/**", "services/**", "packages/**", "cli/**"],
    ignores: ["**/src/**", "**/test/**", "**/bench/**"],
    rules: {
      "no-restricted-imports": refuse(
        ["@bancada/e2e", "@bancada/testkit", "@bancada/bench"],
        "only tests and benchmarks import the harnesses.",
      ),
    },
  },
  {
    files: ["cli/src/**"],
    rules: {
      "no-restricted-imports": refuse(
        ["@bancada/e2e", "@bancada/testkit", "@bancada/bench"],
        "production code does not import the test harnesses.",
      ),
    },
  },
);
