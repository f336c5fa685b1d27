import { curveKeyPair } from 'zeromq';
import { Agent, type CurveKeys } from './agent/agent.js';
import { WorkerInfo, validateWorkerName } from './agent/workerInfo.js';
import { request, resolveWorker, type To } from './call.js';
import { canonicalMap, reverseMap, validateDeviceMaps, type DeviceMaps } from './deviceMaps.js';
import { RpcError } from './errors.js';
import { Future } from './future.js';
import { installHandlers } from './handlers.js';
import { rpcAutogradHooks } from './hooks.js';
import { MessageType } from './messages/messageType.js';
import { functionName, isBuiltin, register } from './registry.js';
import { advertisedAddress } from './rendezvous/advertise.js';
import { rendezvous, storeAddress, type WorkerRecord } from './rendezvous/store.js';
import { newGid } from './rref/globallyUniqueId.js';
import { resetRRefContext, rrefContext } from './rref/rrefContext.js';
import { RRef, setRRefProxyFactory } from './rref/rref.js';
import { methodProxy } from './rref/proxy.js';
import { maybeRpcState, rpcState, setRpcState, timeoutMs } from './state.js';
import { resetBarrier, shutdownBarrier } from './shutdown.js';

export interface BackendOptions {
  initMethod?: string;
  rpcTimeout?: number;
  numWorkerThreads?: number;
  deviceMaps?: DeviceMaps;
  devices?: string[];
  /** default tcp://127.0.0.1:<free port>; across machines tcp://0.0.0.0:<port> (Note [Advertised address]) */
  listenAddress?: string;
  /** largest frame accepted, in bytes: a peer refuses to send a bigger one; ZeroMQ drops a connection that does */
  maxMessageBytes?: number;
  /** small messages to one peer leave batched in one ZeroMQ message (default true; Note [Batched messages]) */
  batchMessages?: boolean;
  /** ZeroMQ heartbeat interval, in ms (a peer silent for 3 intervals is dead) */
  heartbeatMs?: number;
  curve?: CurveKeys & { serverKeys?: Record<string, string> };
  /** where protocol violations are reported (default: console.warn) */
  onProtocolError?: (e: RpcError) => void;
}

export interface InitOptions {
  rank: number;
  worldSize: number;
  backendOptions?: BackendOptions;
}

const KNOWN_OPTIONS = new Set(['initMethod', 'rpcTimeout', 'numWorkerThreads', 'deviceMaps', 'devices', 'listenAddress', 'maxMessageBytes', 'heartbeatMs', 'batchMessages', 'curve', 'onProtocolError']);

function checkOptions(name: string, opts: InitOptions): Required<Pick<BackendOptions, 'rpcTimeout' | 'numWorkerThreads'>> {
  const nameError = validateWorkerName(name);
  if (nameError) throw new RpcError('INVALID_ARGUMENT', nameError);
  const { rank, worldSize, backendOptions = {} } = opts ?? ({} as InitOptions);
  if (!Number.isInteger(worldSize) || worldSize < 1) throw new RpcError('INVALID_ARGUMENT', `worldSize must be a positive integer, got ${String(worldSize)}`);
  if (!Number.isInteger(rank) || rank < 0 || rank >= worldSize) throw new RpcError('INVALID_ARGUMENT', `rank must be an integer in [0, ${worldSize}), got ${String(rank)}`);
  for (const k of Object.keys(backendOptions)) if (!KNOWN_OPTIONS.has(k)) throw new RpcError('INVALID_ARGUMENT', `unknown backend option '${k}'`);
  const rpcTimeout = backendOptions.rpcTimeout ?? 60;
  if (typeof rpcTimeout !== 'number' || !(rpcTimeout >= 0)) throw new RpcError('INVALID_ARGUMENT', `rpcTimeout must be a non-negative number of seconds, got ${String(rpcTimeout)}`);
  const numWorkerThreads = backendOptions.numWorkerThreads ?? 16;
  if (!Number.isInteger(numWorkerThreads) || numWorkerThreads < 1) throw new RpcError('INVALID_ARGUMENT', `numWorkerThreads must be a positive integer, got ${String(numWorkerThreads)}`);
  const { maxMessageBytes } = backendOptions;
  if (maxMessageBytes !== undefined && !(Number.isSafeInteger(maxMessageBytes) && maxMessageBytes > 0)) {
    throw new RpcError('INVALID_ARGUMENT', `maxMessageBytes must be a positive integer, got ${String(maxMessageBytes)}`);
  }
  for (const d of backendOptions.devices ?? []) if (!/^(cpu|gpu(:\d+)?)$/.test(d)) throw new RpcError('DEVICE_MAP', `invalid device '${d}' in backendOptions.devices`);
  return { rpcTimeout, numWorkerThreads };
}

/** Joins the RPC group: rendezvous, agent, connections to every peer (torch.distributed.rpc.init_rpc). */
export async function initRpc(name: string, opts: InitOptions): Promise<void> {
  if (maybeRpcState()) throw new RpcError('ALREADY_INITIALIZED', 'RPC is already initialized');
  const { rpcTimeout, numWorkerThreads } = checkOptions(name, opts);
  const b = opts.backendOptions ?? {};
  const self = new WorkerInfo(name, opts.rank);
  const maxMessageBytes = b.maxMessageBytes ?? 1 << 30;
  const agent = new Agent({
    self,
    numWorkerThreads,
    batchMessages: b.batchMessages ?? true,
    maxMessageBytes,
    heartbeatMs: b.heartbeatMs ?? 1000,
    curve: b.curve ? { publicKey: b.curve.publicKey, secretKey: b.curve.secretKey } : null,
    onProtocolError: b.onProtocolError ?? ((e) => console.warn(`[wiregrad rpc ${name}] ${e.message}`)),
  });
  resetBarrier(opts.worldSize);
  try {
    rpcAutogradHooks().onInit?.(opts.rank, opts.worldSize);
    installHandlers(agent);
    for (const [type, handler] of Object.entries(rpcAutogradHooks().handlers ?? {})) agent.registerHandler(Number(type) as MessageType, handler!);
    const initMethod = b.initMethod ?? 'env://';
    const address = await advertisedAddress(await agent.bind(b.listenAddress ?? 'tcp://127.0.0.1:0'), storeAddress(initMethod));
    const record: WorkerRecord & { deviceMaps: DeviceMaps } = {
      name, rank: opts.rank, address, publicKey: b.curve?.publicKey ?? null, maxMessageBytes, deviceMaps: b.deviceMaps ?? {},
    };
    const records = (await rendezvous(initMethod, record, opts.worldSize, rpcTimeout * 1000 || 60_000)) as (WorkerRecord & { deviceMaps?: DeviceMaps })[];
    validateDeviceMaps(name, b.deviceMaps ?? {}, records.map((r) => r.name));
    agent.connect(
      records.map((r) => ({
        info: r.name === name ? self : new WorkerInfo(r.name, r.rank),
        address: r.address,
        publicKey: b.curve?.serverKeys?.[r.name] ?? r.publicKey,
        maxMessageBytes: r.maxMessageBytes,
        outMap: canonicalMap(b.deviceMaps?.[r.name]),
        inMap: reverseMap(r.deviceMaps?.[name]),
      })),
    );
    setRpcState({ agent, self, worldSize: opts.worldSize, defaultTimeoutMs: rpcTimeout * 1000, shuttingDown: false });
  } catch (e) {
    await agent.close();
    throw e;
  }
}

function callMessage(fn: unknown, args: unknown[]): { type: MessageType; payload: { fn: string; args: unknown[] } } {
  const name = functionName(fn);
  if (!Array.isArray(args)) throw new RpcError('INVALID_ARGUMENT', `args must be an array, got ${typeof args}`);
  return { type: isBuiltin(name) ? MessageType.SCRIPT_CALL : MessageType.PYTHON_CALL, payload: { fn: name, args } };
}

export interface CallOptions {
  /** seconds; 0 = no timeout; default: the RPC default (getRpcTimeout()) */
  timeout?: number;
}

/** Runs `fn(...args)` on `to` and returns a Future of its result (torch.distributed.rpc.rpc_async). */
export function rpcAsync<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): Future<T> {
  try {
    const info = resolveWorker(to);
    const msg = callMessage(fn, args);
    return Future.from(request(info, msg, timeoutMs(opts.timeout)).then((r) => (r.payload as { value: T }).value));
  } catch (e) {
    const f = new Future<T>();
    f.setError(e);
    return f;
  }
}

/** Runs `fn(...args)` on `to` and resolves with its result (torch.distributed.rpc.rpc_sync). */
export function rpcSync<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): Promise<T> {
  return rpcAsync<T>(to, fn, args, opts).wait();
}

/** Runs `fn(...args)` on `to`, keeping the result there; returns an RRef to it (torch.distributed.rpc.remote). */
export function remote<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): RRef<T> {
  const { self } = rpcState();
  const info = resolveWorker(to);
  const msg = callMessage(fn, args);
  const ms = timeoutMs(opts.timeout);
  const type = msg.type === MessageType.SCRIPT_CALL ? MessageType.SCRIPT_REMOTE_CALL : MessageType.PYTHON_REMOTE_CALL;
  if (info === self) {
    const rrefId = newGid(self.id);
    const rref = RRef.ownerView<T>(rrefId);
    const done = request(info, { type, payload: { ...msg.payload, rrefId, forkId: null } }, ms);
    done.catch((e) => {
      const entry = rrefContext().ownerEntry(rrefId);
      if (!entry.value.done()) entry.value.setError(e);
    });
    rref.setCreation(done);
    return rref;
  }
  const rrefId = newGid(self.id);
  const forkId = newGid(self.id);
  const rref = RRef.userRef<T>(info.id, rrefId, forkId, false);
  rref.setCreation(request(info, { type, payload: { ...msg.payload, rrefId, forkId } }, ms));
  return rref;
}

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

export function getRpcTimeout(): number {
  return rpcState().defaultTimeoutMs / 1000;
}

/** Changes the default timeout for calls made from now on (in-flight calls keep theirs). */
export function setRpcTimeout(seconds: number): void {
  const s = rpcState();
  if (typeof seconds !== 'number' || !(seconds >= 0)) throw new RpcError('INVALID_ARGUMENT', `timeout must be a non-negative number of seconds, got ${String(seconds)}`);
  s.defaultTimeoutMs = seconds * 1000;
}

export interface ShutdownOptions {
  graceful?: boolean;
  /** seconds the barrier may take before sockets are closed anyway */
  timeout?: number;
}

/**
 * Leaves the group. Graceful (default): every worker's outstanding calls settle, then an
 * all-worker barrier (Note [Shutdown barrier]); then every socket closes. Afterwards every
 * call rejects with "RPC has not been initialized".
 */
export async function shutdown(opts: ShutdownOptions = {}): Promise<void> {
  const s = maybeRpcState();
  if (!s) return;
  if (s.shuttingDown) throw new RpcError('SHUTDOWN', 'shutdown() is already in progress');
  s.shuttingDown = true;
  const timeout = (opts.timeout ?? 60) * 1000;
  let error: unknown = null;
  try {
    if (opts.graceful !== false) await shutdownBarrier(s, timeout);
  } catch (e) {
    error = e;
  } finally {
    await s.agent.close();
    rpcAutogradHooks().onShutdown?.();
    resetRRefContext();
    setRpcState(null);
  }
  if (error) throw error;
}

/** Bytes and messages this worker's agent has sent and received since initRpc. */
export function getRpcStats(): { bytesSent: number; bytesReceived: number; messagesSent: number; messagesReceived: number } {
  const { bytesSent, bytesReceived, messagesSent, messagesReceived } = rpcState().agent.stats;
  return { bytesSent, bytesReceived, messagesSent, messagesReceived };
}

/** Debug counters of the RRef protocol on this worker. */
export function getRRefDebugInfo(): ReturnType<ReturnType<typeof rrefContext>['debugInfo']> {
  return rrefContext().debugInfo();
}

export { curveKeyPair, register };

/** PyTorch's rref.rpc_sync()/rpc_async()/remote() proxies: call a method of the value on its owner. */
function rrefProxies(rref: RRef) {
  const call = (kind: typeof rpcAsync | typeof remote, timeout?: number) =>
    methodProxy((method, args) => kind(rref.owner(), '_wiregrad.rrefCallMethod', [rref, method, args], { timeout }));
  return {
    rpcSync: (timeout?: number) => methodProxy((method, args) => rpcSync(rref.owner(), '_wiregrad.rrefCallMethod', [rref, method, args], { timeout })),
    rpcAsync: (timeout?: number) => call(rpcAsync, timeout),
    remote: (timeout?: number) => call(remote, timeout),
  };
}

setRRefProxyFactory(rrefProxies);
