// Builds the playground into a static folder: src/index.html and one esbuild bundle
// (main.js, IIFE, for browsers) of src/main.ts, and gpu.js's browser build for the gpu device, and the workspace packages' TypeScript sources
// (the `source` export condition, with `browser` for the `#platform` imports).
// `pnpm --filter playground build` writes dist/; the spec builds into a temporary folder.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const APP = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** gpu.js's browser build (defines a global GPU, which @wiregrad/tensor's browser platform uses), found as tensor finds gpu.js */
function gpuBrowserBuild(): string {
  const main = createRequire(join(APP, '../../packages/tensor/package.json')).resolve('gpu.js');
  return join(dirname(main), '..', 'dist', 'gpu-browser.min.js');
}

export interface BuildResult {
  outDir: string;
  /** the bundle's size in bytes */
  bytes: number;
}

export async function build(outDir: string = join(APP, 'dist')): Promise<BuildResult> {
  mkdirSync(outDir, { recursive: true });
  const result = await esbuild.build({
    entryPoints: [join(APP, 'src/main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    conditions: ['source'],
    minify: true,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    absWorkingDir: APP,
  });
  copyFileSync(join(APP, 'src/index.html'), join(outDir, 'index.html'));
  copyFileSync(gpuBrowserBuild(), join(outDir, 'gpu-browser.min.js'));
  const bytes = Object.entries(result.metafile.outputs).find(([k]) => k.endsWith('main.js'))?.[1].bytes ?? 0;
  return { outDir, bytes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { outDir, bytes } = await build();
  console.log(`playground: built ${outDir} (main.js ${bytes} bytes)`);
}
