import { afterEach, describe, expect, it } from 'vitest';
import { WorkerInfo } from '@wiregrad/rpc';
import { disposeWorker, getContainer, getWorker, initWorker, maybeWorker, setReleaseWait } from './workerState.js';

// No RPC group here: releases are told to wait long enough that none is ever sent.
afterEach(() => {
  disposeWorker();
  setReleaseWait(10);
});

/** A context made on `worker` that talked to `peers`, registered in this worker's container. */
function contextFrom(worker: number, peers: number[]) {
  const ctx = getContainer().getOrCreateContext((BigInt(worker) << 48n) | 1n);
  for (const p of peers) ctx.addKnownWorkerId(p);
  return ctx;
}

describe("distributed autograd's state on one worker: made at initRpc, disposed at shutdown", () => {
  it('exists only between the onInit and onShutdown hooks', () => {
    expect(maybeWorker()).toBeNull();
    expect(() => getWorker()).toThrow('Distributed autograd is not initialized: call initRpc first');
    initWorker(3);
    expect(getContainer().workerId).toBe(3);
    expect(getWorker().passes.size).toBe(0);
    disposeWorker();
    expect(maybeWorker()).toBeNull();
    expect(() => getContainer()).toThrow(expect.objectContaining({ code: 'NOT_INITIALIZED' }));
  });

  it('a new group starts from nothing: no context or waiting release of the last one survives', () => {
    setReleaseWait(60_000);
    initWorker(0);
    const old = getWorker();
    old.releases.later(contextFrom(0, [1]), null);
    initWorker(0);
    expect(getWorker()).not.toBe(old);
    expect(getContainer().contexts.size).toBe(0);
    expect(getWorker().releases.take(1)).toBeUndefined();
    old.releases.later(contextFrom(0, [2]), null); // the old state takes no more releases
    expect(old.releases.take(2)).toBeUndefined();
  });

  it('releases wait per worker (never for this one or the one they came from) until a message takes them (Note [Releases ride on the next message])', () => {
    setReleaseWait(60_000);
    initWorker(0);
    const { releases } = getWorker();
    const a = contextFrom(0, [0, 1, 2]);
    const b = contextFrom(5, [1, 5]);
    releases.later(a, null);
    releases.later(b, 5);
    expect(releases.take(0)).toBeUndefined();
    expect(releases.take(5)).toBeUndefined();
    expect(releases.take(1)).toEqual([a.contextId, b.contextId]);
    expect(releases.take(1)).toBeUndefined();
    expect(releases.take(2)).toEqual([a.contextId]);
  });

  it('a worker that left: its contexts are dropped, it is forgotten in the others with its releases (Note [A worker that left])', () => {
    setReleaseWait(60_000);
    initWorker(0);
    const worker = getWorker();
    const theirs = contextFrom(1, [1]);
    const ours = contextFrom(0, [1, 2]);
    worker.releases.later(ours, null);
    worker.forgetWorker(new WorkerInfo('trainer1', 1));
    expect([...getContainer().contexts.keys()]).toEqual([ours.contextId]);
    expect(theirs.knownWorkerIds().size).toBe(1); // dropped whole, not edited
    expect([...ours.knownWorkerIds()]).toEqual([2]);
    expect(worker.releases.take(1)).toBeUndefined();
    expect(worker.releases.take(2)).toEqual([ours.contextId]);
  });
});
