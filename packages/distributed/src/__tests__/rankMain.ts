// A rank's process (runRanks in ranks.ts): runs the scenario module named in argv[2], prints
// `RESULT <json>` of what its run() returned, leaves the process group and exits.
import { destroyProcessGroup, isInitialized } from '@wiregrad/distributed';
import { plain } from '@wiregrad/test-helpers';

interface Scenario {
  run(ctx: { rank: number; worldSize: number; extra: unknown }): Promise<unknown>;
}

// never outlive the spec that started it
setTimeout(() => process.exit(3), 90_000).unref();
const scenario = (await import(process.argv[2]!)) as Scenario;
const result = await scenario.run({
  rank: Number(process.env.RANK),
  worldSize: Number(process.env.WORLD_SIZE),
  extra: JSON.parse(process.env.SCENARIO_EXTRA ?? 'null') as unknown,
});
// a pipe is written asynchronously: exit only once the line is out
await new Promise((resolve) => process.stdout.write(`RESULT ${JSON.stringify(plain(result))}\n`, resolve));
if (isInitialized()) await destroyProcessGroup();
process.exit(0);
