// Type-checks every workspace package and the bench, as `tsc -p <folder>/tsconfig.json --noEmit`
// in each would, with fewer TypeScript programs (Note [Grouped type-check programs]).
// Usage: node scripts/typecheck.mjs (the root `typecheck` script, which `pnpm test` runs).
// Exit 1 on any diagnostic, or when GROUPS below no longer fits the workspace.
//
// Note [Grouped type-check programs]
// Each package's tsconfig maps the other packages to their sources (tsconfig.base.json's
// `paths`), so each of the twelve programs `turbo run typecheck && tsc -p bench` built checked
// the tensor, autograd and rpc sources again: 12-16 s of cpu each, about 150 s in all, which
// `pnpm test` paid on 2 cores. Here the packages of one group are one program (the union of their
// tsconfigs' files), checked once. A program is the same check for each of its packages when
// (1) the packages' compiler options are equal (playground's DOM lib and bench's declaration:
// false make groups of their own) and (2) no file in the union changes the types of another
// package's files: a `declare module` / `declare global` augmentation (tensor's specs add test
// kernels to KernelSpecs, dist-autograd adds its payloads to rpc's, consumer-tests adds to
// vitest's ProvidedContext) must already be in the program of every package of its group. Both
// are checked below on every run, from each package's own tsconfig (its `include` stays the one
// list of what is checked: scripts/check-typechecked.mjs), so a new augmentation or package
// fails here and names the group to change instead of quietly checking less.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');
const GROUPS = [
  ['packages/tensor'],
  ['packages/autograd', 'packages/nn', 'packages/rpc', 'packages/test-helpers', 'packages/distributed'],
  ['packages/dist-autograd', 'apps/demo'],
  ['packages/consumer-tests'],
  ['apps/playground'],
  ['bench'],
];
const AUGMENTS = /^\s*declare\s+(module\s+['"]|global\s*\{)/m;

const format = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};
const report = (diagnostics) =>
  process.stdout.isTTY
    ? ts.formatDiagnosticsWithColorAndContext(diagnostics, format)
    : ts.formatDiagnostics(diagnostics, format);

/** A folder's tsconfig.json as tsc -p reads it. */
function parse(folder) {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, folder, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(report([d]));
    },
  });
  if (!parsed) throw new Error(`${folder}: no tsconfig.json`);
  return parsed;
}

/** Checks one group; returns the number of problems. */
function checkGroup(folders) {
  const configs = folders.map(parse);
  const optionsOf = (c) => JSON.stringify({ ...c.options, configFilePath: undefined });
  const problems = [];
  for (const [i, c] of configs.entries()) {
    if (optionsOf(c) !== optionsOf(configs[0]))
      problems.push(`${folders[i]}'s compiler options differ from ${folders[0]}'s: give it a group of its own`);
  }
  // source files parsed once, shared by the packages' own programs and the group's
  const cache = new Map();
  const host = ts.createCompilerHost(configs[0].options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => {
    const key = `${name}\0${typeof lang === 'object' ? lang.languageVersion : lang}`;
    if (!cache.has(key)) cache.set(key, getSourceFile(name, lang, ...rest));
    return cache.get(key);
  };
  const rootNames = [...new Set(configs.flatMap((c) => c.fileNames))];
  const program = ts.createProgram({ rootNames, options: configs[0].options, host });
  if (folders.length > 1) {
    const augmenting = program
      .getSourceFiles()
      .filter((f) => !f.fileName.includes('/node_modules/') && AUGMENTS.test(f.text))
      .map((f) => f.fileName);
    for (const [i, c] of configs.entries()) {
      const own = ts.createProgram({ rootNames: c.fileNames, options: c.options, host });
      const files = new Set(own.getSourceFiles().map((f) => f.fileName));
      for (const f of augmenting.filter((a) => !files.has(a)))
        problems.push(
          `${relative(ROOT, f)} augments a module, and ${folders[i]}'s own program does not hold it: ` +
            `checked with it, ${folders[i]} would see types it does not see alone (scripts/typecheck.mjs, GROUPS)`,
        );
    }
  }
  const diagnostics = [...configs.flatMap((c) => c.errors), ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length > 0) process.stdout.write(report(diagnostics));
  for (const p of problems) process.stdout.write(`typecheck: ${p}\n`);
  return diagnostics.length + problems.length;
}

/** Every folder with a tsconfig.json that `turbo run typecheck` or the bench ran, in no group twice. */
function checkGroupsCoverWorkspace() {
  const wanted = ['bench'];
  for (const top of ['packages', 'apps']) {
    for (const name of readdirSync(join(ROOT, top))) {
      const pkg = join(ROOT, top, name, 'package.json');
      if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).scripts?.typecheck) wanted.push(`${top}/${name}`);
    }
  }
  const grouped = GROUPS.flat();
  const missing = wanted.filter((f) => !grouped.includes(f));
  const twice = grouped.filter((f, i) => grouped.indexOf(f) !== i);
  for (const f of missing) process.stdout.write(`typecheck: ${f} has a typecheck script but no group in GROUPS\n`);
  for (const f of twice) process.stdout.write(`typecheck: ${f} is in two groups of GROUPS\n`);
  return missing.length + twice.length;
}

/** Runs `node thisScript --group i` for each group, a few at a time; prints each one's output as it ends. */
async function main() {
  if (checkGroupsCoverWorkspace() > 0) return 1;
  const started = Date.now();
  const queue = GROUPS.map((_, i) => i);
  let failed = 0;
  const lane = async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const child = spawn(process.execPath, [import.meta.filename, '--group', String(i)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
      const code = await new Promise((resolve) => child.once('close', (c) => resolve(c ?? 1)));
      process.stdout.write(out);
      if (code !== 0) failed++;
    }
  };
  const lanes = Math.max(1, Math.min(GROUPS.length, availableParallelism()));
  await Promise.all(Array.from({ length: lanes }, lane));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const folders = GROUPS.flat().length;
  process.stdout.write(
    failed === 0
      ? `typecheck: ${folders} folders in ${GROUPS.length} programs, no errors (${seconds} s)\n`
      : `typecheck: ${failed} of ${GROUPS.length} programs failed (${seconds} s)\n`,
  );
  return failed === 0 ? 0 : 1;
}

const at = process.argv.indexOf('--group');
process.exitCode = at >= 0 ? (checkGroup(GROUPS[Number(process.argv[at + 1])]) > 0 ? 1 : 0) : await main();
