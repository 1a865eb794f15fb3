import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { monacoZhCn } from './scripts/monaco-zh-cn';

// The browser app: runtime/main.tsx is the entry, index.html at the root.
// /api and /open go to the Fastify server in `npm run dev`.
const apiPort = Number(process.env.PORT ?? 8080);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text-like files worth compressing; images and woff2 are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|ttf|otf|eot|ico|wasm|webmanifest)$/i;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** Writes (or removes, when it would not be smaller) one compressed copy beside `file`. */
async function compressOne(file: string, data: Buffer, mtimeMs: number, ext: '.br' | '.gz'): Promise<number> {
  const target = file + ext;
  const existing = await stat(target).catch(() => null);
  if (existing && existing.mtimeMs >= mtimeMs) return 0; // up to date (kept from an earlier build)
  const packed =
    ext === '.br'
      ? await brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: /\.(ttf|otf|eot)$/i.test(file) ? zlib.constants.BROTLI_MODE_FONT : zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        })
      : await gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION });
  if (packed.length >= data.length) {
    // a stale copy of an earlier version must not be served in its place
    await rm(target, { force: true });
    return 0;
  }
  // written aside and renamed: a build stopped half-way never leaves a truncated copy to be served
  await writeFile(`${target}.tmp`, packed);
  await rename(`${target}.tmp`, target);
  return 1;
}

/**
 * Pre-compresses the build: `<file>.br` and `<file>.gz` beside every text file of the output (public files
 * included), served by @fastify/static's `preCompressed`. Copies that are newer than their file are kept,
 * so a build into a folder that keeps old chunks only compresses what changed.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'dsc:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await walk(outDir)).filter((f) => COMPRESSIBLE.test(f));
      const counts = await Promise.all(
        files.map(async (file) => {
          const st = await stat(file);
          if (st.size < MIN_BYTES) {
            await Promise.all(['.br', '.gz'].map((ext) => rm(file + ext, { force: true })));
            return 0;
          }
          const data = await readFile(file);
          return (await compressOne(file, data, st.mtimeMs, '.br')) + (await compressOne(file, data, st.mtimeMs, '.gz'));
        }),
      );
      this.info(`${counts.reduce((a, b) => a + b, 0)} compressed copies written (brotli + gzip)`);
    },
  };
}

export default defineConfig({
  // monacoZhCn: the code editors' menus and hints in Chinese (scripts/monaco-zh-cn.ts)
  plugins: [react(), monacoZhCn(), precompress()],
  // `npm run dev` pre-bundles monaco with rolldown: the same translation there
  optimizeDeps: { rolldownOptions: { plugins: [monacoZhCn()] } },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 4000,
    rolldownOptions: {
      output: {
        // What the entry loads before anything else (React, the request layer, the antd pieces the login
        // form and the shell share) in one chunk: split by how the 47 lazily loaded widget kinds share antd,
        // it was 37 files of 1–40 KB, each with its own request and ~1 KB of response headers.
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
      '/open': `http://127.0.0.1:${apiPort}`,
      '/files': `http://127.0.0.1:${apiPort}`,
    },
  },
});
