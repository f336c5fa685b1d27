// Vite and webpack builds of a program (programs/*.ts) as a page, the way an app bundles the
// installed packages: each bundler with its defaults for browsers, no plugin, no polyfill; and
// the same bundlers for Node (webpack `target: 'node'`, Vite's SSR build).
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

export interface NodeBuild {
  /** the bundle to run with node */
  file: string;
  /** the bundle's text */
  text: string;
  /** what the bundler warned about */
  warnings: string[];
}

export type NodeBundler = 'webpack' | 'vite-ssr' | 'vite-ssr-noexternal';

/**
 * webpack for Node with its defaults (`target: 'node'`, production, CommonJS output), except
 * that terser does not minify (minutes on 2 loaded cores; it changes nothing webpack resolves).
 */
async function nodeWithWebpack(src: string, program: string): Promise<NodeBuild> {
  const ts = readFileSync(join(PROGRAMS, `${program}.ts`), 'utf8');
  const js = await esbuild.transform(ts, { loader: 'ts', format: 'esm', target: 'es2022' });
  writeFileSync(join(src, 'main.mjs'), js.code);
  const dir = join(src, 'dist');
  const stats = await new Promise<webpack.Stats>((done, fail) => {
    webpack(
      {
        mode: 'production',
        target: 'node',
        context: src,
        entry: './main.mjs',
        // .cjs: the consumer project is "type": "module"
        output: { path: dir, filename: 'main.cjs', clean: true },
        optimization: { minimize: false },
        devtool: false,
        performance: { hints: false },
      },
      (err, result) => (err || !result ? fail(err ?? new Error('webpack gave no result')) : done(result)),
    );
  });
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  if (stats.hasErrors())
    throw new Error(`webpack failed on ${program}:\n${(info.errors ?? []).map((e) => e.message).join('\n')}`);
  const file = join(dir, 'main.cjs');
  return { file, text: readFileSync(file, 'utf8'), warnings: (info.warnings ?? []).map((w) => w.message) };
}

/**
 * `vite build --ssr` of the program with Vite's defaults (dependencies stay external and
 * Node loads them from node_modules), or with `ssr.noExternal: true`, which bundles every
 * package too.
 */
async function nodeWithVite(src: string, program: string, noExternal: boolean): Promise<NodeBuild> {
  copyFileSync(join(PROGRAMS, `${program}.ts`), join(src, 'main.ts'));
  const dir = join(src, 'dist');
  const warnings: string[] = [];
  await viteBuild({
    root: src,
    configFile: false,
    logLevel: 'silent',
    ...(noExternal ? { ssr: { noExternal: true } } : {}),
    build: {
      ssr: './main.ts',
      outDir: dir,
      emptyOutDir: true,
      rollupOptions: { onwarn: (w) => warnings.push(w.message) },
    },
  });
  const out = readdirSync(dir).filter((f) => /\.m?js$/.test(f));
  if (out.length !== 1) throw new Error(`vite wrote ${out.length} scripts for ${program}: ${out.join(', ')}`);
  const file = join(dir, out[0]!);
  return { file, text: readFileSync(file, 'utf8'), warnings };
}

/** Bundles `program` for Node with `bundler` in `consumer/outDir/program`. */
export function buildNode(bundler: NodeBundler, consumer: string, program: string, outDir: string): Promise<NodeBuild> {
  const src = join(consumer, outDir, program);
  mkdirSync(src, { recursive: true });
  return bundler === 'webpack' ? nodeWithWebpack(src, program) : nodeWithVite(src, program, bundler !== 'vite-ssr');
}
