// Bundled programs run: tensor methods, cpu kernels, gradient rules and dist-autograd's rpc
// hooks all register by importing a module for its side effects, so a `sideEffects` field
// that leaves one of those modules out makes bundlers drop it silently (Note [Registration
// by import] in the README of this package).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ROOT } from './consumer.js';
import { PROGRAMS } from './programs.js';
import { bundle, lastJson, runNode } from './run.js';

const consumer = inject('consumerDir');
/**
 * zeromq is a native addon, which no bundle can hold: the one option the rpc and dist-autograd
 * READMEs tell users to add to a Node bundle ("Bundling for Node: keep `zeromq` external")
 */
const external = ['zeromq'];

describe('the Node bundles use no external that the READMEs do not tell users to add', () => {
  it.each(['rpc', 'dist-autograd'])('the %s README names each one, with esbuild option', (pkg) => {
    const readme = readFileSync(join(ROOT, 'packages', pkg, 'README.md'), 'utf8');
    for (const name of external) expect(readme).toContain(`--external:${name}`);
  });
});

describe.each(['esm', 'cjs'] as const)('esbuild --bundle --platform=node --format=%s', (format) => {
  it.each(PROGRAMS.map((p) => [p.name, p] as const))(
    '%s runs bundled and prints the expected values',
    async (_name, program) => {
      const b = await bundle({
        consumer,
        program: program.name,
        platform: 'node',
        format,
        external,
        outDir: `bundle-node-${format}`,
      });
      const r = await runNode(b.file, { cwd: consumer, env: program.env ? await program.env() : {} });
      program.check(lastJson(r));
    },
  );
});

describe('the sideEffects fields drop no module the packages need', () => {
  it.each(PROGRAMS.map((p) => p.name))(
    '%s bundles the same modules as when every sideEffects field is ignored',
    async (program) => {
      const options = {
        consumer,
        program,
        platform: 'node',
        format: 'esm',
        external,
        outDir: 'bundle-modules',
      } as const;
      const honoured = await bundle(options);
      const ignored = await bundle({ ...options, ignoreSideEffects: true });
      expect(honoured.modules).toEqual(ignored.modules);
      // not vacuous: the modules that only register things are in both
      expect(honoured.modules).toEqual(
        expect.arrayContaining([
          'node_modules/@wiregrad/tensor/dist/methods/math.js',
          'node_modules/@wiregrad/tensor/dist/backends/cpu/registerMath.js',
        ]),
      );
    },
  );

  it('the rpc hooks of dist-autograd and the gradient rules of autograd are kept', async () => {
    const b = await bundle({
      consumer,
      program: 'distAutograd',
      platform: 'node',
      format: 'esm',
      external,
      outDir: 'bundle-modules',
    });
    expect(b.modules).toEqual(
      expect.arrayContaining([
        'node_modules/@wiregrad/dist-autograd/dist/install.js',
        'node_modules/@wiregrad/autograd/dist/gradients/binary.grad.js',
      ]),
    );
  });
});
