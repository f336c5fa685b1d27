import { curveKeyPair } from './agent/zeromq.js';
import { Agent, type AgentAuth, type PeerSpec } from './agent/agent.js';
import { WorkerInfo } from './agent/workerInfo.js';
import { groupSecret, type GroupSecret } from './auth/groupSecret.js';
import { type BackendOptions, type InitOptions, checkOptions } from './backendOptions.js';
import { canonicalMap, reverseMap, validateDeviceMaps } from './deviceMaps.js';
import { RpcError } from './errors.js';
import { installHandlers } from './handlers.js';
import { rpcAutogradHooks } from './hooks.js';
import { emitJoin, emitLeave } from './membership.js';
import { MessageType } from './messages/messageType.js';
import { advertisedAddress } from './rendezvous/advertise.js';
import { ipcDirectory } from './agent/localTransport.js';
import { RendezvousStore, requestRendezvous, storeAddress, type WorkerRecord } from './rendezvous/store.js';
import { closeNow, resetBarrier } from './shutdown.js';
import { maybeRpcState, setRpcState } from './state.js';
import { runNotified } from './notify.js';
import { announceAgent, untilTerminated } from './threadTeardown.js';

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
      onNotify: (from, fn, args) => runNotified(from, fn, args, log),
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
