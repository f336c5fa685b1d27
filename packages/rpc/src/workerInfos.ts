import type { WorkerInfo } from './agent/workerInfo.js';
import { RpcError } from './errors.js';
import { rpcState } from './state.js';

/** This worker's WorkerInfo, or that of the member named `name` (torch.distributed.rpc.get_worker_info). */
export function getWorkerInfo(name?: string): WorkerInfo {
  const { agent, self } = rpcState();
  if (name === undefined) return self;
  const info = agent.workerInfo(name);
  if (!info) throw new RpcError('UNKNOWN_WORKER', `Unknown destination worker ${name}`);
  return info;
}

export function getWorkerInfos(): WorkerInfo[] {
  return rpcState().agent.workerInfos();
}
