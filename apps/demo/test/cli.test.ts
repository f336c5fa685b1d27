import { describe, expect, it } from 'vitest';
import {
  BENCH_EPOCHS,
  BENCH_LONG_EPOCHS,
  parseConfig,
  USAGE_HINT,
  UsageError,
  workerArgv,
  type DemoConfig,
} from '../src/cli.js';
import { runDemo } from './runDemo.js';

const config = (argv: string[], cwd = '/home/someone/project') => parseConfig(argv, cwd) as DemoConfig;

function usageError(argv: string[]): UsageError {
  try {
    parseConfig(argv, '/');
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).code).toBe('USAGE');
    return e as UsageError;
  }
  throw new Error(`parseConfig accepted ${argv.join(' ')}`);
}

describe('pnpm demo command line', () => {
  it('--out is relative to the folder pnpm was started in (INIT_CWD), not apps/demo', () => {
    expect(config(['--out', 'plots']).out).toBe('/home/someone/project/plots');
    expect(config(['--out', '../elsewhere/x']).out).toBe('/home/someone/elsewhere/x');
    expect(config(['--out', '/tmp/abs']).out).toBe('/tmp/abs');
    expect(config([]).out).toBe('/home/someone/project/out');
    expect(config(['worker', '--rank', '1', '--master', 'tcp://127.0.0.1:1', '--out', 'o']).out).toBe(
      '/home/someone/project/o',
    );
  });

  it('--update picks how the ps server updates: async (default), batch or dist, and workers get the same', () => {
    expect(config([]).update).toBe('async');
    expect(config(['--update', 'batch']).update).toBe('batch');
    const argv = workerArgv(config(['--update', 'dist']), 1, 'tcp://127.0.0.1:1');
    expect(argv[argv.indexOf('--update') + 1]).toBe('dist');
    expect(workerArgv(config(['pipeline']), 1, 'tcp://127.0.0.1:1')).not.toContain('--update');
    expect(usageError(['--update', 'sync']).message).toBe("--update must be async, batch or dist, got 'sync'");
    expect(usageError(['mnist', '--update', 'batch']).message).toBe('--update is for the ps example');
  });

  it('a mistyped option is named in one balanced line with the option it most likely meant', () => {
    expect(usageError(['--epoch', '3']).message).toBe("unknown option '--epoch' (did you mean --epochs?)");
    expect(usageError(['--epcohs', '3']).message).toBe("unknown option '--epcohs' (did you mean --epochs?)");
    expect(usageError(['--batch', '8']).message).toBe("unknown option '--batch' (did you mean --batch-size?)");
    expect(usageError(['--wokers=2']).message).toBe("unknown option '--wokers' (did you mean --workers?)");
    expect(usageError(['--zzzz']).message).toBe("unknown option '--zzzz'");
    for (const argv of [['--epoch'], ['--zzzz'], ['-q']]) {
      const { message } = usageError(argv);
      expect(message.split("'").length % 2, message).toBe(1); // quotes balanced
      expect(message).not.toContain('\n');
    }
  });

  it('--bench is a quick look by default; --long is the full sweep; --epochs overrides both', () => {
    expect(config(['--bench'])).toMatchObject({ bench: true, long: false, epochs: BENCH_EPOCHS });
    expect(config(['--bench', '--long'])).toMatchObject({ bench: true, long: true, epochs: BENCH_LONG_EPOCHS });
    expect(config(['--bench', '--long', '--epochs', '7']).epochs).toBe(7);
    expect(BENCH_EPOCHS).toBeLessThan(BENCH_LONG_EPOCHS);
    expect(usageError(['--long']).message).toBe('--long is for --bench: pnpm demo --bench --long');
  });

  it('a negative number after an option is its value: --epochs -3 gives the same message as --epochs=-3', () => {
    for (const [flag, message] of [
      ['--epochs', "--epochs must be an integer >= 1, got '-3'"],
      ['--seed', "--seed must be an integer >= 0, got '-3'"],
      ['--lr', "--lr must be a positive number, got '-3'"],
    ] as const) {
      expect(usageError([flag, '-3']).message).toBe(message);
      expect(usageError([`${flag}=-3`]).message).toBe(message);
    }
    expect(usageError(['--lr', '-.5']).message).toBe("--lr must be a positive number, got '-.5'");
    expect(usageError(['--epochs', '-x']).message).toMatch(/argument is ambiguous/); // not a number: parseArgs' own message
  });

  it('a usage error prints its one line and a hint, exit code 2, neither the usage text nor a stack trace', async () => {
    const runs = [];
    for (const argv of [
      ['--epochs', '-3'],
      ['--workers', 'two'],
      ['worker', '--rank', '1'],
    ])
      runs.push(await runDemo(argv, 60_000));
    for (const r of runs) {
      expect(r.status, r.stderr).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, r.stderr).toHaveLength(2);
      expect(lines[0]).toMatch(/^wiregrad demo: /);
      expect(lines[1]).toBe(USAGE_HINT);
      expect(r.stdout).toBe('');
    }
    expect(runs[0]!.stderr).toBe(`wiregrad demo: --epochs must be an integer >= 1, got '-3'\n${USAGE_HINT}\n`);
    expect(runs[2]!.stderr).toContain('the worker command needs --master');
  }, 120_000);

  it('--help prints the usage text', async () => {
    const r = await runDemo(['--help'], 60_000);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: pnpm demo/);
    expect(r.stdout).toContain('--out DIR');
  }, 60_000);
});
