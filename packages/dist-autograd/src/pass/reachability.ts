import type { Node } from '@wiregrad/autograd';
import { RecvRpcBackward } from '../functions/recvRpcBackward.js';

/** RecvRpcBackward nodes reachable from `starts` in the local graph (iterative walk). */
export function reachableRecvs(starts: readonly Node[]): RecvRpcBackward[] {
  const seen = new Set<Node>(starts);
  const stack = [...starts];
  const found: RecvRpcBackward[] = [];
  while (stack.length > 0) {
    const fn = stack.pop()!;
    if (fn instanceof RecvRpcBackward) found.push(fn);
    for (const e of fn.nextEdges) {
      if (e.node && !seen.has(e.node)) {
        seen.add(e.node);
        stack.push(e.node);
      }
    }
  }
  return found;
}

/** Past this many message ids a firing set is not sent along: the pass asks with a mark round instead. */
let maxFiringSet = 1024;

/** The largest firing set sent along (tests set 0 to run every pass through the mark round). */
export function setMaxFiringSet(n: number): void {
  maxFiringSet = n;
}

/**
 * Note [Firing sets]
 * A send function fires in a backward pass exactly when the RecvRpcBackward paired with it
 * (same message id, on the other worker) is reached from the pass's roots. The graph behind
 * a send function is fixed when the send function is made (nodes are only ever added in
 * front of a graph), so the send side computes, at forward time, the message ids that fire
 * whenever it fires: the RecvRpcBackward nodes its local graph reaches, and, transitively,
 * what each of those reaches on its own sender (carried in the forward message as
 * `reaches`). At backward time the origin walks its own graph once: the recv nodes its roots
 * reach, with their `reaches`, are every send function the pass fires, on every worker.
 * That set rides on the gradient messages, so each worker knows its reachable send
 * functions when its first gradients arrive: Note [No hang on unused outputs] holds without
 * the mark round, and a round costs the forward call and the gradient propagation only.
 * Where a set is unknown (too large, or made by an older peer), the mark round runs instead.
 */
export function firingSet(starts: readonly Node[]): bigint[] | null {
  const ids = new Set<bigint>();
  const recvs = reachableRecvs(starts);
  if (recvs.length > maxFiringSet) return null;
  for (const recv of recvs) {
    if (recv.reaches === null) return null;
    ids.add(recv.messageId);
    for (const id of recv.reaches) ids.add(id);
    if (ids.size > maxFiringSet) return null;
  }
  return [...ids];
}
