// Every shell command of the documentation (the ```sh blocks of every README and docs/*.md) does
// what it says it can: a `pnpm demo ...` line parses as the demo's options (no usage error), a
// root script, a `--filter` package's script, a vitest project or path and a package to add exist,
// and an `npx wiregrad-run ...` line parses as the launcher's (torchrun's) flags.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRunArgs } from '@wiregrad/distributed';
import { parseConfig } from '../src/cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const json = (file: string) =>
  JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as {
    name: string;
    private?: boolean;
    scripts?: Record<string, string>;
  };
const workspace = ['packages', 'apps'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((d) => existsSync(join(ROOT, dir, d, 'package.json')))
    .map((d) => ({ dir: `${dir}/${d}`, ...json(`${dir}/${d}/package.json`) })),
);
const projects = workspace.flatMap((p) => {
  const config = join(ROOT, p.dir, 'vitest.config.ts');
  const name = existsSync(config) ? /name: '([\w-]+)'/.exec(readFileSync(config, 'utf8'))?.[1] : undefined;
  return name ? [name] : [];
});
const rootScripts = json('package.json').scripts ?? {};

const docs = [
  'README.md',
  ...workspace.map((p) => `${p.dir}/README.md`).filter((f) => existsSync(join(ROOT, f))),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** each command of each shell block: `a && b` is two, comments dropped, `npx -y pnpm@x` read as `pnpm` */
const commands = docs.flatMap((doc) =>
  [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].flatMap((m) =>
    m[1]!
      .split('\n')
      .flatMap((line) => line.replace(/(^|\s)#.*$/, '').split('&&'))
      .map((c) => c.trim().replace(/^npx -y pnpm@[\d.]+ /, 'pnpm '))
      .filter((c) => c !== '')
      .map((c) => [doc, c] as const),
  ),
);

/** why `command` would not do what it says, or null */
function problem(command: string): string | null {
  const [tool, ...args] = command.split(/\s+/);
  const vitest =
    tool === 'npx' && args[0] === 'vitest'
      ? args.slice(1)
      : tool === 'pnpm' && args[0] === 'vitest'
        ? args.slice(1)
        : null;
  if (vitest) {
    if (vitest[0] !== 'run') return 'vitest without run';
    const project = vitest.indexOf('--project');
    if (project >= 0)
      return projects.includes(vitest[project + 1]!) ? null : `no vitest project ${vitest[project + 1]}`;
    const missing = vitest.slice(1).filter((p) => !existsSync(join(ROOT, p)));
    return missing.length ? `no ${missing.join(', ')}` : null;
  }
  if (tool === 'npx' && args[0] === 'wiregrad-run') {
    try {
      parseRunArgs(args.slice(1));
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  }
  if (tool !== 'pnpm') return `not a pnpm, vitest or wiregrad-run command`;
  const [sub, ...rest] = args;
  if (sub === 'install') return null;
  if (sub === 'add') {
    const unknown = rest.filter((n) => !workspace.some((p) => p.name === n && !p.private));
    return unknown.length ? `not a published package: ${unknown.join(', ')}` : null;
  }
  if (sub === '--filter') {
    const pkg = workspace.find((p) => p.name === rest[0]);
    if (!pkg) return `no workspace package ${rest[0]}`;
    return pkg.scripts?.[rest[1]!] ? null : `${rest[0]} has no script ${rest[1]}`;
  }
  if (sub === 'demo') {
    try {
      parseConfig(rest);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  }
  return rootScripts[sub!] ? null : `no root script ${sub}`;
}

describe('the shell commands of the documentation', () => {
  it('are found in the READMEs (demo, vitest, install and add lines among them)', () => {
    const text = commands.map(([, c]) => c).join('\n');
    expect(text).toMatch(/^pnpm demo mnist/m);
    expect(text).toMatch(/^pnpm add @wiregrad\//m);
    expect(text).toMatch(/vitest run --project/m);
  });

  it('reads a wrong one as wrong', () => {
    expect(problem('pnpm demo --epoch 3')).toContain('did you mean --epochs');
    expect(problem('pnpm add @wiregrad/consumer-tests')).toBe('not a published package: @wiregrad/consumer-tests');
    expect(problem('npx vitest run --project nope')).toBe('no vitest project nope');
    expect(problem('npx wiregrad-run --nproc-per-node 2 --max-restart 3 train.ts')).toContain(
      'unknown option --max-restart',
    );
  });

  it.each(commands.map(([doc, c]) => [doc, c]))('%s: %s', (_doc, command) => {
    expect(problem(command)).toBeNull();
  });
});
