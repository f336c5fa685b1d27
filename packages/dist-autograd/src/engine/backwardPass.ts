import type { Node } from '@wiregrad/autograd';
import { type DrivenPass, openPass } from '@wiregrad/autograd/internal';
import type { BackwardPass, DistAutogradContext } from '../context/context.js';
import { RecvRpcBackward } from '../functions/recvRpcBackward.js';
import type { SendRpcBackward } from '../functions/sendRpcBackward.js';

/** The pass `id` of a context, created on first sight (a new id replaces a finished pass). */
export function ensurePass(ctx: DistAutogradContext, id: string): BackwardPass {
  if (ctx.pass?.id !== id)
    ctx.pass = {
      id,
      reachableSends: new Set(),
      markedRecvs: new Set(),
      fired: new Set(),
      graphTask: null,
      outstanding: [],
      fires: null,
    };
  ctx.touch();
  return ctx.pass;
}

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

/**
 * PyTorch's DistEngine::computeDependencies: a pass (Note [Driving a pass] in
 * @wiregrad/autograd) whose dependencies come from the local root (if any) and every send
 * function this pass will reach; its outputs are the leaves, whose gradients go into the
 * context (never `.grad`), and the RecvRpcBackward nodes, which send gradients on. A hold
 * keeps it open until the pass is over here.
 */
export function buildGraphTask(
  ctx: DistAutogradContext,
  pass: BackwardPass,
  root: Node | null,
  retainGraph: boolean,
): DrivenPass {
  const sends: SendRpcBackward[] = [...pass.reachableSends];
  const task = openPass({
    starts: root ? [root, ...sends] : sends,
    keepGraph: retainGraph,
    isOutput: (n) => n instanceof RecvRpcBackward,
    onLeafGrad: (variable, grad) => ctx.accumulateGrad(variable, grad),
  });
  task.hold();
  pass.graphTask = task;
  return task;
}

/** Completes the pass's engine run here (final callbacks, leftovers check). */
export function finishGraphTask(task: DrivenPass): void {
  task.close();
}
