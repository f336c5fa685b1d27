// Helpers of the specs: bundle a program inside the consumer project, run a file with node.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createContext, runInContext } from 'node:vm';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

/** The example programs of this package (programs/*.ts). */
export const PROGRAMS = resolve(dirname(fileURLToPath(import.meta.url)), '../programs');

export interface BundleOptions {
  /** consumer project folder: the program is copied there so it resolves the installed tarballs */
  consumer: string;
  program: string;
  platform: 'node' | 'browser';
  format: 'esm' | 'cjs' | 'iife';
  minify?: boolean;
  /** esbuild's ignoreAnnotations: bundle as if no package.json had a `sideEffects` field */
  ignoreSideEffects?: boolean;
  external?: string[];
  /** subfolder of the consumer project to write into */
  outDir: string;
}

export interface Bundle {
  file: string;
  bytes: Uint8Array;
  /** project-relative paths of the modules with code in the bundle */
  modules: string[];
  /** what the bundle still imports at run time (externals: `node:` modules, zeromq...) */
  externals: string[];
}

const EXT = { esm: 'mjs', cjs: 'cjs', iife: 'js' } as const;

export async function bundle(o: BundleOptions): Promise<Bundle> {
  const dir = join(o.consumer, o.outDir);
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `${o.program}.ts`);
  copyFileSync(join(PROGRAMS, `${o.program}.ts`), entry);
  const file = join(dir, `${o.program}.${o.platform}${o.ignoreSideEffects ? '.all' : ''}.${EXT[o.format]}`);
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: o.platform,
    format: o.format,
    target: 'es2022',
    minify: o.minify ?? false,
    ignoreAnnotations: o.ignoreSideEffects ?? false,
    external: o.external ?? [],
    metafile: true,
    write: true,
    logLevel: 'silent',
    absWorkingDir: o.consumer,
  });
  const output = Object.values(result.metafile.outputs).find((out) => out.entryPoint !== undefined);
  if (!output) throw new Error(`esbuild wrote no bundle for ${o.program}`);
  const modules = Object.entries(output.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([k]) => k)
    .sort();
  const externals = [
    ...new Set(
      Object.values(result.metafile.inputs).flatMap((i) =>
        i.imports.filter((imp) => imp.external).map((imp) => imp.path),
      ),
    ),
  ].sort();
  return { file, bytes: readFileSync(file), modules, externals };
}

/**
 * The `node:` modules a bundle's text still loads, in any form a bundler writes (`require("node:x")`,
 * `import "node:x"`, `from"node:x"`, `import("node:x")`): a quoted specifier starting with `node:`.
 */
export function nodeSpecifiers(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(/["'`](node:[\w/]+)["'`]/g), (m) => m[1]!))].sort();
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node [args] file [argv]`, resolving with its exit code and output (never rejecting on failure). */
export function runNode(
  file: string,
  opts: { cwd: string; env?: Record<string, string>; args?: string[]; argv?: string[]; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [...(opts.args ?? []), file, ...(opts.argv ?? [])],
      { cwd: opts.cwd, env: { ...process.env, ...opts.env }, timeout: opts.timeoutMs ?? 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** The JSON a program printed as its last stdout line, with its stderr in the error if it failed. */
export function lastJson(r: RunResult): unknown {
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.code !== 0 || !line.startsWith('{'))
    throw new Error(`exit ${String(r.code)}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return JSON.parse(line) as unknown;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
  });
}

export interface PageRun {
  logs: string[];
  /** what evaluating the bundle threw, if anything */
  error: { name: string; message: string; code?: unknown } | null;
}

/**
 * Runs a browser bundle (IIFE) in a fresh V8 context that has the JavaScript builtins
 * (WebAssembly, SharedArrayBuffer, Atomics...) and the few web globals a page has
 * (console, atob, timers, TextEncoder/Decoder, performance), but no `process`, `Buffer`,
 * `require` or `global`: a bundle that reaches for Node fails here as it would on a page.
 */
export function runInPage(code: string): PageRun {
  const logs: string[] = [];
  const log = (...args: unknown[]): void => {
    logs.push(args.map(String).join(' '));
  };
  const page = createContext({
    console: { log, info: log, warn: log, error: log, debug: log },
    atob,
    btoa,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    TextEncoder,
    TextDecoder,
    performance,
  });
  try {
    runInContext(code, page, { timeout: 60_000 });
    return { logs, error: null };
  } catch (e) {
    const err = e as { name?: unknown; message?: unknown; code?: unknown };
    return { logs, error: { name: String(err.name), message: String(err.message), code: err.code } };
  }
}
