// Every README example, copied verbatim into a strict TypeScript project that installed the
// packed tarballs, type-checks: under Node's resolution (`nodenext`) and a bundler's
// (`bundler`); the examples of the packages that run in browsers without @types/node
// (Note [Browser examples have no Node types]).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from './consumer.js';

const consumer = inject('consumerDir');
const tarballs = inject('tarballs');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * Note [Browser examples have no Node types]
 * tensor, autograd and nn run in browsers, where projects have no @types/node: an example that
 * imports only those is checked with `types: []` and the DOM lib, so a published declaration
 * that names `node:async_hooks`, `Buffer` or `NodeJS.*` fails it. The other examples (rpc,
 * dist-autograd) get @types/node, as any Node project has.
 */
const BROWSER_PACKAGES = /^@wiregrad\/(tensor|autograd|nn)(\/|$)/;

interface Example {
  readme: string;
  index: number;
  file: string;
  env: 'browser' | 'node';
}

/** The root README (not published) and each package's README as its tarball has it. */
function readmes(): [string, string][] {
  const out: [string, string][] = [['README.md', join(ROOT, 'README.md')]];
  for (const name of Object.keys(tarballs).sort()) {
    const file = join(consumer, 'node_modules', name, 'README.md');
    if (existsSync(file)) out.push([`${name} README.md`, file]);
  }
  return out;
}

const dir = join(consumer, 'readme-types');
const examples: Example[] = [];
for (const [readme, file] of readmes()) {
  const blocks = [...readFileSync(file, 'utf8').matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  blocks.forEach((code, index) => {
    const specifiers = [...code.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    const env = specifiers.every((s) => BROWSER_PACKAGES.test(s)) ? 'browser' : 'node';
    const name = `${readme.replace(/[^a-z0-9]+/gi, '-')}${index}.ts`.replace(/^-/, '');
    // `export {}` keeps a block without imports a module, as every example file of a project is
    examples.push({ readme, index, file: join(dir, env, name), env });
    mkdirSync(join(dir, env), { recursive: true });
    writeFileSync(join(dir, env, name), `${code}\nexport {};\n`);
  });
}

const STRICT = {
  target: 'ES2022',
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noEmit: true,
  skipLibCheck: false,
};
const RESOLUTION = {
  nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext' },
  bundler: { module: 'Preserve', moduleResolution: 'Bundler' },
} as const;
const ENV = {
  browser: { lib: ['ES2022', 'DOM'], types: [] },
  node: { lib: ['ES2022'], types: ['node'] },
} as const;

type Resolution = keyof typeof RESOLUTION;
const diagnostics = new Map<string, string[]>();

function typecheck(env: 'browser' | 'node', resolution: Resolution): Promise<void> {
  const config = join(dir, `tsconfig.${env}.${resolution}.json`);
  writeFileSync(
    config,
    JSON.stringify(
      { compilerOptions: { ...STRICT, ...RESOLUTION[resolution], ...ENV[env] }, include: [`${env}/*.ts`] },
      null,
      2,
    ),
  );
  return new Promise((done) => {
    execFile(
      process.execPath,
      [tsc, '-p', config, '--pretty', 'false'],
      { cwd: consumer, timeout: 120_000 },
      (_error, stdout) => {
        for (const line of stdout.split('\n').filter((l) => /error TS\d+/.test(l))) {
          const file = /^[^(\s]+\(\d+,\d+\)/.test(line) ? join(consumer, line.slice(0, line.indexOf('('))) : '';
          const key = `${env}:${resolution}:${file.startsWith(dir) ? file : 'library'}`;
          diagnostics.set(key, [...(diagnostics.get(key) ?? []), line]);
        }
        done();
      },
    );
  });
}

beforeAll(async () => {
  // not vacuous: tsc runs and reports (control.ts has one error), and the browser project does
  // not see the @types/node the consumer has installed (canary.ts)
  for (const env of ['browser', 'node'] as const)
    writeFileSync(join(dir, env, 'control.ts'), "export const n: number = 'one';\n");
  writeFileSync(
    join(dir, 'browser', 'canary.ts'),
    "// @ts-expect-error no @types/node in a browser project\nimport { readFileSync } from 'node:fs';\nexport { readFileSync };\n",
  );
  for (const env of ['browser', 'node'] as const) {
    for (const resolution of Object.keys(RESOLUTION) as Resolution[]) await typecheck(env, resolution);
  }
});

describe.each(Object.keys(RESOLUTION) as Resolution[])(
  'README examples in a strict project (moduleResolution %s)',
  (resolution) => {
    it('finds examples in every package README', () => {
      expect(new Set(examples.map((e) => e.readme))).toEqual(new Set(readmes().map(([r]) => r)));
    });

    it('reports no error inside the published declarations', () => {
      expect([
        ...(diagnostics.get(`browser:${resolution}:library`) ?? []),
        ...(diagnostics.get(`node:${resolution}:library`) ?? []),
      ]).toEqual([]);
    });

    it.each(['browser', 'node'] as const)('runs tsc on the %s project (a control file has its one error)', (env) => {
      const control = diagnostics.get(`${env}:${resolution}:${join(dir, env, 'control.ts')}`) ?? [];
      expect(control).toHaveLength(1);
      expect(control[0]).toContain('error TS2322');
    });

    it('has no @types/node in the browser project', () => {
      expect(diagnostics.get(`browser:${resolution}:${join(dir, 'browser', 'canary.ts')}`) ?? []).toEqual([]);
    });

    it.each(examples.map((e) => [`${e.readme} #${e.index + 1} (${e.env})`, e] as const))(
      '%s type-checks',
      (_label, e) => {
        expect(diagnostics.get(`${e.env}:${resolution}:${e.file}`) ?? [], relative(consumer, e.file)).toEqual([]);
      },
    );
  },
);
