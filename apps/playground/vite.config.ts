// The playground as a Vite app: `pnpm playground` (the dev server), `pnpm --filter playground build`
// (static files in dist/), `pnpm --filter playground preview` (serves dist/). The workspace packages
// are bundled from their TypeScript sources (the `source` condition, before the browser ones, which
// pick each package's browser `#platform` module).
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Note [Cross-origin isolation headers]
 * COOP same-origin + COEP require-corp make the page cross-origin isolated (`crossOriginIsolated`),
 * which a SharedArrayBuffer, and so a multi-threaded cpu kernel pool, needs. Vite's dev and
 * preview servers send them; any other host of dist/ must send them too (README.md).
 */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: here('.'),
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    // the parity page runs vitest spec files in the page (Note [Parity specs in the browser])
    alias: { vitest: here('src/parity/vitestShim.ts') },
  },
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  build: {
    target: 'es2022',
    sourcemap: true,
    // gpu.js's browser build alone is ~640 kB, in a chunk of its own fetched only when the gpu is first used
    chunkSizeWarningLimit: 700,
    rollupOptions: { input: { main: here('index.html'), parity: here('parity.html') } },
  },
});
