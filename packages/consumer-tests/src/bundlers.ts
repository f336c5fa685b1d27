// Vite and webpack builds of a program (programs/*.ts) as a page, the way an app bundles the
// installed packages: each bundler with its defaults for browsers, no plugin, no polyfill.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { pageHtml } from './chromium.js';
import { PROGRAMS } from './run.js';

export interface PageBuild {
  /** the folder to serve: index.html and the scripts it loads */
  dir: string;
  /** the text of every JavaScript file written */
  scripts: string[];
  /** what the bundler warned about */
  warnings: string[];
}

export type Bundler = 'vite' | 'webpack';

function scriptsIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

/** `vite build` of an index.html whose module script is the program. */
async function withVite(src: string, program: string): Promise<PageBuild> {
  copyFileSync(join(PROGRAMS, `${program}.ts`), join(src, 'main.ts'));
  writeFileSync(join(src, 'index.html'), pageHtml(program, '<script type="module" src="./main.ts"></script>'));
  const dir = join(src, 'dist');
  const warnings: string[] = [];
  await viteBuild({
    root: src,
    configFile: false,
    logLevel: 'silent',
    build: {
      outDir: dir,
      emptyOutDir: true,
      rollupOptions: { onwarn: (w) => warnings.push(w.message) },
    },
  });
  return { dir, scripts: scriptsIn(dir), warnings };
}

/**
 * webpack in production mode for the web, on the program as JavaScript (esbuild strips its
 * types, as a TypeScript loader would), loaded by a classic script.
 */
async function withWebpack(src: string, program: string): Promise<PageBuild> {
  const ts = readFileSync(join(PROGRAMS, `${program}.ts`), 'utf8');
  const js = await esbuild.transform(ts, { loader: 'ts', format: 'esm', target: 'es2022' });
  writeFileSync(join(src, 'main.mjs'), js.code);
  const dir = join(src, 'dist');
  const stats = await new Promise<webpack.Stats>((done, fail) => {
    webpack(
      {
        mode: 'production',
        target: 'web',
        context: src,
        entry: './main.mjs',
        output: { path: dir, filename: 'main.js', clean: true },
        devtool: false,
        performance: { hints: false },
      },
      (err, result) => (err || !result ? fail(err ?? new Error('webpack gave no result')) : done(result)),
    );
  });
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  if (stats.hasErrors())
    throw new Error(`webpack failed on ${program}:\n${(info.errors ?? []).map((e) => e.message).join('\n')}`);
  writeFileSync(join(dir, 'index.html'), pageHtml(program, '<script src="./main.js"></script>'));
  return { dir, scripts: scriptsIn(dir), warnings: (info.warnings ?? []).map((w) => w.message) };
}

/** Builds `program` as a page with `bundler` in `consumer/outDir/program`. */
export function buildPage(bundler: Bundler, consumer: string, program: string, outDir: string): Promise<PageBuild> {
  const src = join(consumer, outDir, program);
  mkdirSync(src, { recursive: true });
  return bundler === 'vite' ? withVite(src, program) : withWebpack(src, program);
}
