import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Outside Next.js the marker package would throw; in tests it is a no-op.
      "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    include: [
      "lib/**/__tests__/**/*.test.ts",
      "components/**/__tests__/**/*.test.ts",
      "components/**/__tests__/**/*.test.tsx",
      "scripts/**/__tests__/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files share one throwaway cluster; each works in its own organizations so order does not matter.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
