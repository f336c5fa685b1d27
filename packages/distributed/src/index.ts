// @wiregrad/distributed: torch.distributed in TypeScript — explicit named exports only.
export { DistributedError } from './errors.js';
export type { DistributedErrorCode } from './errors.js';
export {
  ProcessGroup,
  initProcessGroup,
  destroyProcessGroup,
  isInitialized,
  getRank,
  getWorldSize,
  getLocalRank,
} from './processGroup.js';
export type { InitProcessGroupOptions } from './processGroup.js';
export { newGroup } from './newGroup.js';
export { expandHostList } from './hostList.js';
export { rendezvousOf } from './env.js';
export type { Env, Rendezvous, RendezvousOptions } from './env.js';
export { ReduceOp } from './collectives/reduceOp.js';
export { Work } from './collectives/work.js';
export type { CollectiveOptions, Launched } from './collectives/work.js';
export { allReduce } from './collectives/allReduce.js';
export type { ReduceOptions } from './collectives/allReduce.js';
export { broadcast } from './collectives/broadcast.js';
export { reduce } from './collectives/reduce.js';
export { allGather } from './collectives/allGather.js';
export { reduceScatter } from './collectives/reduceScatter.js';
export { gather } from './collectives/gather.js';
export type { GatherOptions } from './collectives/gather.js';
export { scatter } from './collectives/scatter.js';
export type { ScatterOptions } from './collectives/scatter.js';
export { barrier } from './collectives/barrier.js';
export { send, recv } from './collectives/pointToPoint.js';
export type { P2POptions } from './collectives/pointToPoint.js';
export { DistributedSampler } from './sampler.js';
export type { DistributedSamplerOptions } from './sampler.js';
export { MALLOC_TUNABLES } from './launcher/mallocTunables.js';
export { parseRunArgs } from './launcher/args.js';
export type { RunArgs } from './launcher/args.js';
export { DistributedDataParallel } from './ddp/distributedDataParallel.js';
export type { DistributedDataParallelOptions } from './ddp/distributedDataParallel.js';
