import { parseConfig, USAGE, UsageError } from './cli.js';
import { runMnist } from './examples/mnist.js';
import { launch } from './launcher.js';
import { workerMain } from './worker.js';

/** `pnpm demo [ps|pipeline|mnist] [options]` launches every worker; `pnpm demo worker ...` is one worker. */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'worker') {
    await workerMain(argv);
    return 0;
  }
  try {
    const c = parseConfig(argv);
    if (c === 'help') {
      console.log(USAGE);
      return 0;
    }
    // mnist with --workers N runs on the launcher like ps and pipeline (a server and N-1 trainer processes)
    if (c.example === 'mnist' && c.workers === 1) return await runMnist(c);
    return await launch(c);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`wiregrad demo: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`wiregrad demo: ${(e as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2).filter((a) => a !== '--'));
