import { type DemoConfig, parseConfig, USAGE, USAGE_HINT, UsageError } from './cli.js';

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

/**
 * `pnpm demo [ps|pipeline|mnist|ddp] [options]` launches every worker (ddp through wiregrad-run); `pnpm demo worker ...` is one
 * worker. Each role is imported when it is chosen: a worker never loads the launcher's plotting
 * (Vega), and a usage error or --help answers before any of the packages load.
 */
async function main(argv: string[]): Promise<number> {
  const c = parse(argv);
  if (c === null) return 2;
  if (c === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (c.command === 'worker') return (await import('./worker.js')).workerMain(c);
  try {
    if (c.example === 'mnist' || c.example === 'ddp')
      await (await import('./examples/mnistData.js')).checkSizes(c.trainSize, c.testSize);
    // mnist with --workers N runs on the launcher like ps and pipeline (a server and N-1 trainer processes)
    if (c.example === 'names' && c.sample) return await (await import('./examples/names.js')).runNamesSample(c);
    if (c.example === 'names' && c.ddp) return await (await import('./examples/namesDdp.js')).runNamesDdp(c);
    if (c.example === 'ddp') return await (await import('./examples/ddp.js')).runDdp(c);
    if (c.example === 'mnist' && c.workers === 1) return await (await import('./examples/mnist.js')).runMnist(c);
    return await (await import('./launcher.js')).launch(c);
  } catch (e) {
    console.error(`wiregrad demo: ${(e as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2).filter((a) => a !== '--'));
