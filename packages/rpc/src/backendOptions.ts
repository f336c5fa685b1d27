import { validateWorkerName } from './agent/workerInfo.js';
import type { CurveKeys } from './agent/agent.js';
import type { DeviceMaps } from './deviceMaps.js';
import { RpcError } from './errors.js';

export interface BackendOptions {
  initMethod?: string;
  rpcTimeout?: number;
  numWorkerThreads?: number;
  deviceMaps?: DeviceMaps;
  devices?: string[];
  /** default tcp://127.0.0.1:<free port>; across machines tcp://0.0.0.0:<port> (Note [Advertised address]) */
  listenAddress?: string;
  /** the address the other workers connect to (default: the listen address, Note [Advertised address]); behind NAT, a port forward or a proxy, the one they reach */
  advertisedAddress?: string;
  /** largest frame accepted, in bytes: a peer refuses to send a bigger one; ZeroMQ drops a connection that does */
  maxMessageBytes?: number;
  /** small messages to one peer leave batched in one ZeroMQ message (default true; Note [Batched messages]) */
  batchMessages?: boolean;
  /** heartbeat interval, in ms (default 1000; Note [Peer liveness]) */
  heartbeatMs?: number;
  /** heartbeat intervals of silence after which a peer is dead and leaves the group (default 3) */
  deadAfterHeartbeats?: number;
  /** this worker's CURVE keys (default: generated for the run); with serverKeys, only those client keys may connect (Note [CURVE authentication]) */
  curve?: CurveKeys & { serverKeys?: Record<string, string> };
  /** the group secret (default: WIREGRAD_GROUP_SECRET, else the user's cookie file; Note [Group secret]) */
  secret?: string;
  /** no authentication and no encryption: any process that reaches the ports is served (trusted loopback tests only) */
  insecure?: boolean;
  /** peers on this machine connect over a Unix socket (default true, unless advertisedAddress is set; Note [Same-machine peers over Unix sockets]) */
  ipc?: boolean;
  /** where protocol violations, and who a rendezvous still waits for every few seconds, are reported (default: console.warn) */
  onProtocolError?: (e: RpcError) => void;
}

export interface InitOptions {
  /** this worker's id; required in a group of fixed `worldSize`; a joiner may leave it out (the store picks a fresh id) */
  rank?: number;
  /** the number of workers of the initial rendezvous; leave it out to join a running group (Note [Membership]) */
  worldSize?: number;
  backendOptions?: BackendOptions;
}

const KNOWN_OPTIONS = new Set([
  'initMethod',
  'rpcTimeout',
  'numWorkerThreads',
  'deviceMaps',
  'devices',
  'listenAddress',
  'advertisedAddress',
  'ipc',
  'maxMessageBytes',
  'heartbeatMs',
  'deadAfterHeartbeats',
  'batchMessages',
  'curve',
  'secret',
  'insecure',
  'onProtocolError',
]);

function positiveInteger(name: string, v: unknown): void {
  if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) > 0))
    throw new RpcError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${String(v)}`);
}

/** Checks initRpc's name and options (every error is INVALID_ARGUMENT or DEVICE_MAP); returns the defaulted timeout and pool size. */
export function checkOptions(
  name: string,
  opts: InitOptions,
): Required<Pick<BackendOptions, 'rpcTimeout' | 'numWorkerThreads'>> {
  const nameError = validateWorkerName(name);
  if (nameError) throw new RpcError('INVALID_ARGUMENT', nameError);
  const { rank, worldSize, backendOptions = {} } = opts ?? ({} as InitOptions);
  if (worldSize !== undefined) {
    if (!Number.isInteger(worldSize) || worldSize < 1)
      throw new RpcError('INVALID_ARGUMENT', `worldSize must be a positive integer, got ${String(worldSize)}`);
    if (!Number.isInteger(rank) || rank! < 0 || rank! >= worldSize)
      throw new RpcError('INVALID_ARGUMENT', `rank must be an integer in [0, ${worldSize}), got ${String(rank)}`);
  } else if (rank !== undefined && (!Number.isInteger(rank) || rank < 0 || rank >= 1 << 16)) {
    throw new RpcError('INVALID_ARGUMENT', `rank must be an integer in [0, 65536), got ${String(rank)}`);
  }
  for (const k of Object.keys(backendOptions))
    if (!KNOWN_OPTIONS.has(k)) throw new RpcError('INVALID_ARGUMENT', `unknown backend option '${k}'`);
  const rpcTimeout = backendOptions.rpcTimeout ?? 60;
  if (typeof rpcTimeout !== 'number' || !(rpcTimeout >= 0))
    throw new RpcError(
      'INVALID_ARGUMENT',
      `rpcTimeout must be a non-negative number of seconds, got ${String(rpcTimeout)}`,
    );
  const numWorkerThreads = backendOptions.numWorkerThreads ?? 16;
  positiveInteger('numWorkerThreads', numWorkerThreads);
  positiveInteger('maxMessageBytes', backendOptions.maxMessageBytes);
  positiveInteger('heartbeatMs', backendOptions.heartbeatMs);
  positiveInteger('deadAfterHeartbeats', backendOptions.deadAfterHeartbeats);
  if (backendOptions.ipc !== undefined && typeof backendOptions.ipc !== 'boolean')
    throw new RpcError('INVALID_ARGUMENT', `backendOptions.ipc must be a boolean, got ${String(backendOptions.ipc)}`);
  for (const d of backendOptions.devices ?? [])
    if (!/^(cpu|gpu(:\d+)?)$/.test(d))
      throw new RpcError('DEVICE_MAP', `invalid device '${d}' in backendOptions.devices`);
  return { rpcTimeout, numWorkerThreads };
}
