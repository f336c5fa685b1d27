import type { ScenarioContext } from '../scenario.js';

/** A scenario that answers with its context, or fails when `extra` says so. */
export async function run(ctx: ScenarioContext): Promise<unknown> {
  if (ctx.extra === 'throw') throw new Error(`rank ${ctx.rank} was told to fail`);
  return { rank: ctx.rank, worldSize: ctx.worldSize, tcp: ctx.initMethod.startsWith('tcp://127.0.0.1:') };
}
