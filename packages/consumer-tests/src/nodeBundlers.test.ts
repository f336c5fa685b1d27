// webpack and Vite bundle programs that use rpc and dist-autograd for Node with their
// defaults and no `externals` option, and the bundles run: zeromq, a native addon, is loaded
// by Node's own require at run time (Note [zeromq is loaded by Node] in rpc), so no bundler
// copies its JavaScript away from its addon. esbuild's Node bundles are bundle.test.ts's.
import { describe, expect, inject, it } from 'vitest';
import { buildNode } from './bundlers.js';
import { program } from './programs.js';
import { lastJson, runNode } from './run.js';

const consumer = inject('consumerDir');

describe.each(['webpack', 'vite-ssr', 'vite-ssr-noexternal'] as const)('%s bundles for Node', (bundler) => {
  it.each(['distAutograd'])('%s: no warning, and the bundle prints what the program prints', async (name) => {
    const built = await buildNode(bundler, consumer, name, `node-${bundler}`);
    expect(built.warnings).toEqual([]);
    // zeromq's loader (cmake-ts's, which reads build/manifest.json beside itself) stayed out
    expect(built.text).not.toContain('Reading and parsing manifest file');
    // the packages are in the bundle (about 100 KB and more), not left to Node; Vite's
    // defaults leave node_modules to Node instead
    if (bundler === 'vite-ssr') expect(built.text).toContain('@wiregrad/');
    else expect(built.text.length).toBeGreaterThan(50_000);
    const p = program(name);
    const r = await runNode(built.file, { cwd: consumer, env: p.env ? await p.env() : {} });
    p.check(lastJson(r));
  });
});
