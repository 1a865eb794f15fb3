import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The browser app: runtime/main.tsx is the entry, index.html at the root.
// /api and /open go to the Fastify server in `npm run dev`.
const apiPort = Number(process.env.PORT ?? 8080);

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', chunkSizeWarningLimit: 4000 },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
      '/open': `http://127.0.0.1:${apiPort}`,
      '/files': `http://127.0.0.1:${apiPort}`,
    },
  },
});
