// Type-checks every workspace package with a `typecheck` script, and the bench: `tsc -p
// <folder>/tsconfig.json --noEmit` in each, with TypeScript 7 (Note [Type-checked by TypeScript 7]),
// two at a time. Usage: node scripts/typecheck.mjs (the root `typecheck` script, which `pnpm test`
// runs). Exit 1 on any diagnostic.
//
// Note [Type-checked by TypeScript 7]
// The packages are compiled and type-checked by TypeScript 7 (the root devDependency `typescript7`,
// npm's `typescript@7`: the compiler ported to Go). Each package's tsconfig maps the other packages
// to their sources (tsconfig.base.json's `paths`), so each of the eleven programs checks the
// tensor and autograd sources again: with TypeScript 5.9 that was 12-16 s of cpu a program, 90
// cpu-s for the whole check even with the packages grouped into six shared programs, which `pnpm
// test` paid on 2 cores beside the specs; TypeScript 7 checks each package in its own program, as
// its tsconfig says, in 25-33 cpu-s for all eleven (`--singleThreaded`: its checker threads only
// add cpu where the specs already take both cores), and builds tensor's dist/ in 1.3 cpu-s
// against 7.5. TypeScript 7 has no JavaScript API yet, so `typescript` 5.9 stays a devDependency
// for the tools that need one (typescript-eslint's parser, scripts/check-import-cycles.mjs), and
// consumer-tests type-check the packed packages' declarations with it as users on 5.x would.
// Package scripts name TypeScript 7's launcher by path: both packages have a `tsc` bin, and which
// one pnpm links as node_modules/.bin/tsc is not a contract.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(createRequire(join(ROOT, 'package.json')).resolve('typescript7/package.json'), '..', 'bin', 'tsc');
const LANES = 2;

/** bench, and every workspace folder whose package.json has a `typecheck` script. */
function folders() {
  const found = ['bench'];
  for (const top of ['packages', 'apps']) {
    for (const name of readdirSync(join(ROOT, top)).sort()) {
      const pkg = join(ROOT, top, name, 'package.json');
      if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).scripts?.typecheck) found.push(`${top}/${name}`);
    }
  }
  return found;
}

/** Checks one folder; prints its diagnostics when it ends; resolves with tsc's exit code. */
function check(folder) {
  const child = spawn(
    process.execPath,
    [TSC, '-p', join(folder, 'tsconfig.json'), '--noEmit', '--singleThreaded', '--pretty', 'false'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      process.stdout.write(out);
      resolve(code ?? 1);
    }),
  );
}

const started = Date.now();
const queue = folders();
const count = queue.length;
const failed = [];
const lane = async () => {
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) if ((await check(f)) !== 0) failed.push(f);
};
await Promise.all(Array.from({ length: LANES }, lane));
const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(
  failed.length === 0
    ? `typecheck: ${count} folders, no errors (${seconds} s)\n`
    : `typecheck: errors in ${failed.join(', ')} (${seconds} s)\n`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
