// Bundled programs run: tensor methods, cpu kernels, gradient rules and dist-autograd's rpc
// hooks all register by importing a module for its side effects, so a `sideEffects` field
// that leaves one of those modules out makes bundlers drop it silently (Note [Registration
// by import] in the README of this package).
import { builtinModules } from 'node:module';
import { describe, expect, inject, it } from 'vitest';
import { PROGRAMS } from './programs.js';
import { bundle, lastJson, runNode } from './run.js';

const consumer = inject('consumerDir');

/** What a Node bundle may leave to Node: its builtins, nothing installed (not even zeromq). */
const isBuiltin = (path: string): boolean => path.startsWith('node:') || builtinModules.includes(path);

describe.each(['esm', 'cjs'] as const)('esbuild --bundle --platform=node --format=%s', (format) => {
  it.each(PROGRAMS.map((p) => [p.name, p] as const))(
    '%s runs bundled and prints the expected values',
    async (_name, program) => {
      const b = await bundle({
        consumer,
        program: program.name,
        platform: 'node',
        format,
        outDir: `bundle-node-${format}`,
      });
      // no option: zeromq is not in the bundle, and not an import of it either (Note [zeromq is
      // loaded by Node] in rpc): Node loads it at run time from the consumer's node_modules
      expect(b.externals.filter((path) => !isBuiltin(path))).toEqual([]);
      expect(b.modules.filter((path) => path.includes('node_modules/zeromq/'))).toEqual([]);
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
