import { type DemoConfig, parseConfig, USAGE, USAGE_HINT, UsageError } from './cli.js';
import { runMnist } from './examples/mnist.js';
import { launch } from './launcher.js';
import { workerMain } from './worker.js';

/** Exit codes: 0 done, 1 the run failed, 2 a usage error (the message and a hint, never the whole usage text). */
function parse(argv: string[]): DemoConfig | 'help' | null {
  try {
    return parseConfig(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`wiregrad demo: ${e.message}\n${USAGE_HINT}`);
    return null;
  }
}

/** `pnpm demo [ps|pipeline|mnist] [options]` launches every worker; `pnpm demo worker ...` is one worker. */
async function main(argv: string[]): Promise<number> {
  const c = parse(argv);
  if (c === null) return 2;
  if (c === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (c.command === 'worker') return workerMain(c);
  try {
    // mnist with --workers N runs on the launcher like ps and pipeline (a server and N-1 trainer processes)
    if (c.example === 'mnist' && c.workers === 1) return await runMnist(c);
    return await launch(c);
  } catch (e) {
    console.error(`wiregrad demo: ${(e as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2).filter((a) => a !== '--'));
