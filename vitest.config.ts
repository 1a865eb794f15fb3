import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Three projects, one `npm test`:
//  unit   - schemas, common, runtime, widgets, designer, stories (jsdom; *.test.ts(x) beside the code)
//  server - real Fastify over HTTP on a temp store, real PostgreSQL/MariaDB when PG_URL/MYSQL_URL are set
//  e2e    - Chromium driving the built app served by the real server, and every Storybook story
// Type check and lint are steps of their own in `npm test` (scripts/test.mjs), not tests of a project.
export default defineConfig({
  plugins: [react()],
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['{schemas,common,runtime,widgets,designer,stories,scripts}/**/*.test.{ts,tsx}'],
          setupFiles: ['./scripts/test-setup-dom.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server-stub/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['./e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // No retries: a browser test that passes only on a second try hides a race; make it wait for what it means.
          retry: 0,
        },
      },
    ],
  },
});
