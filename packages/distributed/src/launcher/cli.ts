// wiregrad-run: torchrun for wiregrad (`wiregrad-run --nproc-per-node 2 train.ts`). See LocalAgent.
import { LocalAgent } from './agent.js';
import { USAGE, parseRunArgs } from './args.js';

const argv = process.argv.slice(2);
if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(argv.length === 0 ? 1 : 0);
}
let code: number;
try {
  code = await new LocalAgent(parseRunArgs(argv)).run();
} catch (e) {
  process.stderr.write(`wiregrad-run: ${(e as Error).message}\n`);
  code = 2;
}
process.exitCode = code;
