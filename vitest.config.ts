import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "services/*/test/**/*.test.ts",
      "gateway/test/**/*.test.ts",
      "cli/test/**/*.test.ts",
      "infra/test/**/*.test.ts",
      "console/test/**/*.test.ts",
    ],
    globalSetup: ["./vitest.global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-report.json" },
  },
});
