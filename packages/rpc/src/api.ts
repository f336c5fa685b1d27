import { returnedValue, type OutgoingMessage } from './messages/message.js';
import { curveKeyPair } from 'zeromq';
import { Agent, type AgentAuth, type CurveKeys, type PeerSpec } from './agent/agent.js';
import { groupSecret, type GroupSecret } from './auth/groupSecret.js';
import { WorkerInfo, validateWorkerName } from './agent/workerInfo.js';
import { request, resolveWorker, type To } from './call.js';
import { canonicalMap, reverseMap, validateDeviceMaps, type DeviceMaps } from './deviceMaps.js';
import { RpcError } from './errors.js';
import { Future } from './future.js';
import { installHandlers } from './handlers.js';
import { rpcAutogradHooks } from './hooks.js';
import { MessageType } from './messages/messageType.js';
import { functionName, isBuiltin, register, type RegisteredFunction } from './registry.js';
import { advertisedAddress } from './rendezvous/advertise.js';
import { ipcDirectory } from './agent/localTransport.js';
import { RendezvousStore, requestRendezvous, storeAddress, type WorkerRecord } from './rendezvous/store.js';
import { emitJoin, emitLeave } from './membership.js';
import { announceAgent, untilTerminated } from './threadTeardown.js';
import { newGid } from './rref/globallyUniqueId.js';
import { rrefContext } from './rref/rrefContext.js';
import { RRef, setRRefProxyFactory } from './rref/rref.js';
import { methodProxy } from './rref/proxy.js';
import { maybeRpcState, rpcState, setRpcState, timeoutMs } from './state.js';
import { closeNow, resetBarrier } from './shutdown.js';

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

function checkOptions(
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

/**
 * Joins the RPC group (torch.distributed.rpc.init_rpc): rendezvous, agent, connections to
 * every peer. With a `worldSize`, every rank in [0, worldSize) meets at the rendezvous; without
 * one, rank 0 starts a group and every other worker joins the running group (Note [Membership]).
 */
export async function initRpc(name: string, opts: InitOptions): Promise<void> {
  if (maybeRpcState()) throw new RpcError('ALREADY_INITIALIZED', 'RPC is already initialized');
  const { rpcTimeout, numWorkerThreads } = checkOptions(name, opts);
  const b = opts.backendOptions ?? {};
  const dynamic = opts.worldSize === undefined;
  const hostsStore = opts.rank === 0;
  const maxMessageBytes = b.maxMessageBytes ?? 1 << 30;
  const timeout = rpcTimeout * 1000 || 60_000;
  let store: RendezvousStore | null = null;
  // before the first socket opens: a thread terminated (or a process exiting) from here on closes
  // them, cutting the rendezvous short; one whose termination began opens none (Note [Terminating
  // a thread that runs RPC])
  const cutShort = new AbortController();
  let settle = () => {};
  const settled = new Promise<void>((r) => (settle = r));
  const starts = announceAgent(() => {
    cutShort.abort();
    return settled.then(closeNow); // an initRpc past its rendezvous resolves with its agent up
  });
  if (!starts) return untilTerminated();
  const log = b.onProtocolError ?? ((e: RpcError) => console.warn(`[wiregrad rpc ${name}] ${e.message}`));
  let agent: Agent;
  let auth: AgentAuth | null = null;
  let secret: GroupSecret | null = null;
  try {
    if (b.insecure === true)
      console.warn(
        `[wiregrad rpc ${name}] insecure: true: no authentication and no encryption; any process that reaches this worker's port can call it`,
      );
    else {
      secret = groupSecret(b.secret);
      auth = { secret: secret.secret, keys: b.curve ?? curveKeyPair() };
    }
    agent = new Agent({
      self: new WorkerInfo(name, opts.rank ?? -1),
      numWorkerThreads,
      batchMessages: b.batchMessages ?? true,
      maxMessageBytes,
      heartbeatMs: b.heartbeatMs ?? 1000,
      deadAfterHeartbeats: b.deadAfterHeartbeats ?? 3,
      curve: auth ? auth.keys : b.curve ? { publicKey: b.curve.publicKey, secretKey: b.curve.secretKey } : null,
      zap: b.curve !== undefined,
      auth,
      ipcDir: b.ipc === false || b.advertisedAddress !== undefined ? null : ipcDirectory(),
      onProtocolError: log,
      onPeerGone: (info, reason) => {
        store?.remove(info.name);
        emitLeave(info, reason);
      },
      admit: (r, from) => {
        if (r.name !== from) throw new RpcError('PROTOCOL', `JOIN_REQ from '${from}' names '${r.name}'`);
        if (agent.workerInfo(r.name)?.id === r.rank) return; // a copy of its JOIN_REQ (Note [Exactly-once calls])
        const info = new WorkerInfo(r.name, r.rank);
        agent.addPeer(peerSpec(name, b, r, info));
        emitJoin(info);
      },
    });
  } catch (e) {
    announceAgent(null);
    settle();
    throw e;
  }
  try {
    if (b.curve?.serverKeys) for (const key of Object.values(b.curve.serverKeys)) agent.allowedKeys.add(key);
    installHandlers(agent);
    agent.registerHandlers(rpcAutogradHooks().handlers ?? {});
    const initMethod = b.initMethod ?? 'env://';
    const bound = await agent.bind(b.listenAddress ?? 'tcp://127.0.0.1:0');
    const address = b.advertisedAddress ?? (await advertisedAddress(bound, storeAddress(initMethod)));
    const record: WorkerRecord = {
      name,
      rank: opts.rank ?? -1,
      address,
      publicKey: auth?.keys.publicKey ?? b.curve?.publicKey ?? null,
      maxMessageBytes,
      deviceMaps: b.deviceMaps ?? {},
      ...(agent.localEndpoint ? { ipc: agent.localEndpoint } : {}),
    };
    let records: WorkerRecord[];
    let rank: number;
    const waitReports = { report: (message: string) => log(new RpcError('RENDEZVOUS', message)) };
    if (hostsStore) {
      store = await RendezvousStore.start(storeAddress(initMethod), secret, (why) =>
        log(new RpcError('AUTH', `refused ${why}; nothing was answered`)),
      );
      records = await store.rendezvous(record, opts.worldSize ?? 1, timeout, cutShort.signal, waitReports);
      rank = 0;
    } else {
      let ticket: string | undefined;
      ({
        workers: records,
        rank,
        ticket,
      } = await requestRendezvous(initMethod, record, dynamic, timeout, secret, cutShort.signal, waitReports));
      record.ticket = ticket;
    }
    const self = new WorkerInfo(name, rank);
    agent.setSelf(self);
    validateDeviceMaps(
      name,
      b.deviceMaps ?? {},
      records.map((r) => r.name),
    );
    resetBarrier();
    rpcAutogradHooks().onInit?.(rank, opts.worldSize ?? records.length);
    agent.connect(records.map((r) => peerSpec(name, b, r, r.name === name ? self : new WorkerInfo(r.name, r.rank))));
    setRpcState({ agent, self, dynamic, store, defaultTimeoutMs: rpcTimeout * 1000, shuttingDown: false });
    announceAgent(closeNow); // Note [Terminating a thread that runs RPC]
    if (dynamic && !hostsStore) await announce(agent, { ...record, rank }, timeout);
  } catch (e) {
    if (maybeRpcState()?.agent === agent) setRpcState(null);
    store?.close();
    await agent.close();
    rpcAutogradHooks().onShutdown?.();
    announceAgent(null);
    // cut short: the thread is being terminated, and a rejection would reach its parent as its 'error'
    if (cutShort.signal.aborted) return untilTerminated();
    throw e;
  } finally {
    settle();
  }
}

function peerSpec(self: string, b: BackendOptions, r: WorkerRecord, info: WorkerInfo): PeerSpec {
  return {
    info,
    address: r.address,
    ...(r.ipc ? { ipc: r.ipc } : {}),
    publicKey: b.curve?.serverKeys?.[r.name] ?? r.publicKey,
    maxMessageBytes: r.maxMessageBytes,
    outMap: canonicalMap(b.deviceMaps?.[r.name]),
    inMap: reverseMap(r.deviceMaps?.[self]),
  };
}

/** A joiner tells every member of the table who it is (JOIN_REQ) before initRpc resolves (Note [Membership]). */
async function announce(agent: Agent, record: WorkerRecord, timeoutMs: number): Promise<void> {
  const others = agent.workerInfos().filter((w) => w !== agent.self);
  const results = await Promise.allSettled(
    others.map((w) => agent.send(w, { type: MessageType.JOIN_REQ, payload: record }, timeoutMs)),
  );
  results.forEach((r, i) => {
    // a member that died meanwhile is not one any more; any other refusal fails the join
    if (r.status === 'rejected' && (r.reason as RpcError).code !== 'PEER_DISCONNECTED') {
      throw new RpcError('RENDEZVOUS', `${others[i]} refused to admit ${agent.self}: ${(r.reason as Error).message}`);
    }
    if (r.status === 'rejected') agent.removePeer(others[i]!.name, 'dead');
  });
}

function callMessage(
  fn: unknown,
  args: unknown[],
): OutgoingMessage<typeof MessageType.SCRIPT_CALL | typeof MessageType.PYTHON_CALL> {
  const name = functionName(fn);
  if (!Array.isArray(args)) throw new RpcError('INVALID_ARGUMENT', `args must be an array, got ${typeof args}`);
  return { type: isBuiltin(name) ? MessageType.SCRIPT_CALL : MessageType.PYTHON_CALL, payload: { fn: name, args } };
}

export interface CallOptions {
  /** seconds; 0 = no timeout; default: the RPC default (getRpcTimeout()) */
  timeout?: number;
}

/**
 * Note [Typed calls]
 * Passed by value, a registered function types the call: its parameters check `args` and its
 * (awaited) return type is the result, `rpcSync('w1', add, [a, b])` is a Promise<Tensor>.
 * Passed by its registered name, the caller states the result type: `rpcSync<Tensor>('w1', 'square', [x])`.
 */
/** Runs `fn(...args)` on `to` and returns a Future of its result (torch.distributed.rpc.rpc_async). */
export function rpcAsync<F extends RegisteredFunction>(
  to: To,
  fn: F,
  args?: Parameters<F>,
  opts?: CallOptions,
): Future<Awaited<ReturnType<F>>>;
export function rpcAsync<T = unknown>(to: To, fn: string, args?: unknown[], opts?: CallOptions): Future<T>;
export function rpcAsync<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): Future<T> {
  return Future.from(call<T>(to, fn, args, opts));
}

/** A call's value; argument errors reject rather than throw (PyTorch raises them from the future). */
function call<T>(to: To, fn: unknown, args: unknown[], opts: CallOptions): Promise<T> {
  try {
    const info = resolveWorker(to);
    const msg = callMessage(fn, args);
    return request(info, msg, timeoutMs(opts.timeout)).then((r) => returnedValue(r) as T); // T: Note [Typed calls]
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Runs `fn(...args)` on `to` and resolves with its result (torch.distributed.rpc.rpc_sync; Note [Typed calls]). */
export function rpcSync<F extends RegisteredFunction>(
  to: To,
  fn: F,
  args?: Parameters<F>,
  opts?: CallOptions,
): Promise<Awaited<ReturnType<F>>>;
export function rpcSync<T = unknown>(to: To, fn: string, args?: unknown[], opts?: CallOptions): Promise<T>;
export function rpcSync<T = unknown>(to: To, fn: unknown, args: unknown[] = [], opts: CallOptions = {}): Promise<T> {
  return call<T>(to, fn, args, opts); // no Future in between: fewer promise hops on the hot path
}

/** Runs `fn(...args)` on `to`, keeping the result there; returns an RRef to it (torch.distributed.rpc.remote). */
export function remote<F extends RegisteredFunction>(
  to: To,
  fn: F,
  args?: Parameters<F>,
  opts?: CallOptions,
): RRef<Awaited<ReturnType<F>>>;
export function remote<T = unknown>(to: To, fn: string, args?: unknown[], opts?: CallOptions): RRef<T>;
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
  if (typeof seconds !== 'number' || !(seconds >= 0))
    throw new RpcError('INVALID_ARGUMENT', `timeout must be a non-negative number of seconds, got ${String(seconds)}`);
  s.defaultTimeoutMs = seconds * 1000;
}

/** Bytes and messages this worker's agent has sent and received since initRpc. */
export function getRpcStats(): {
  bytesSent: number;
  bytesReceived: number;
  messagesSent: number;
  messagesReceived: number;
  resent: number;
  duplicates: number;
  refused: number;
} {
  const { bytesSent, bytesReceived, messagesSent, messagesReceived, resent, duplicates, refused } =
    rpcState().agent.stats;
  return { bytesSent, bytesReceived, messagesSent, messagesReceived, resent, duplicates, refused };
}

/** Debug counters of the RRef protocol on this worker. */
export function getRRefDebugInfo(): ReturnType<ReturnType<typeof rrefContext>['debugInfo']> {
  return rrefContext().debugInfo();
}

export { curveKeyPair, register };

/** PyTorch's rref.rpc_sync()/rpc_async()/remote() proxies: call a method of the value on its owner. */
function rrefProxies(rref: RRef) {
  const call = (kind: (to: To, fn: string, args: unknown[], opts: CallOptions) => unknown, timeout?: number) =>
    methodProxy((method, args) => kind(rref.owner(), '_wiregrad.rrefCallMethod', [rref, method, args], { timeout }));
  return {
    rpcSync: (timeout?: number) =>
      methodProxy((method, args) =>
        rpcSync(rref.owner(), '_wiregrad.rrefCallMethod', [rref, method, args], { timeout }),
      ),
    rpcAsync: (timeout?: number) => call(rpcAsync, timeout),
    remote: (timeout?: number) => call(remote, timeout),
  };
}

setRRefProxyFactory(rrefProxies);
