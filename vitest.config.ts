import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Three projects, one `npm test`:
//  unit   - schemas, runtime, widgets, designer, stories (jsdom; *.test.ts(x) beside the code)
//  server - real Fastify over HTTP on a temp store, real PostgreSQL/MariaDB when PG_URL/MYSQL_URL are set
//  e2e    - Chromium driving the built app served by the real server
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
          include: ['{schemas,runtime,widgets,designer,stories,scripts}/**/*.test.{ts,tsx}'],
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
          // One retry absorbs timing noise of a real browser on a 2-core machine; a real failure fails twice.
          retry: 1,
        },
      },
    ],
  },
});
