import {
  AccumulateGrad,
  Edge,
  GraphRoot,
  GraphTask,
  InputBuffer,
  computeDependencies,
  getEngine,
  initToExecute,
  type Node,
} from '@wiregrad/autograd';
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
 * PyTorch's DistEngine::computeDependencies: a GraphTask (exitOnError) whose dependencies
 * come from the local root (if any) and every send function this pass will reach; leaves
 * (AccumulateGrad, RecvRpcBackward) are its outputs: AccumulateGrad captures go into the
 * context (never `.grad`), RecvRpcBackward nodes are marked needed so they send gradients.
 * One extra outstanding task holds the GraphTask open until the pass is over here.
 */
export function buildGraphTask(
  ctx: DistAutogradContext,
  pass: BackwardPass,
  root: Node | null,
  retainGraph: boolean,
): GraphTask {
  const task = new GraphTask({ keepGraph: retainGraph, exitOnError: true });
  const sends: SendRpcBackward[] = [...pass.reachableSends];
  const starts: Node[] = root ? [root, ...sends] : sends;
  for (const s of starts) computeDependencies(s, task, 0);
  const outputs: Edge[] = [];
  for (const n of task.nodesInGraph) {
    if (n instanceof AccumulateGrad || n instanceof RecvRpcBackward) outputs.push(new Edge(n, 0));
  }
  if (outputs.length > 0) {
    initToExecute(
      new GraphRoot(
        starts.map((s) => new Edge(s, 0)),
        [],
      ),
      task,
      outputs,
      false,
      0,
    );
    for (const e of outputs) {
      const info = task.execInfo.get(e.node!)!;
      if (e.node instanceof AccumulateGrad) {
        const variable = e.node.variable;
        for (const c of info.captures ?? []) {
          c.hooks.push((g) => {
            if (g) ctx.accumulateGrad(variable, g);
            return g;
          });
        }
      } else {
        info.needed = true;
      }
    }
  }
  task.outstandingTasks++;
  pass.graphTask = task;
  return task;
}

/** Runs the pass's GraphTask from `root` (the local root or a send function) until nothing is ready (PyTorch's execute_graph_task_until_ready_queue_empty). */
export function runFrom(task: GraphTask, root: Node): void {
  getEngine().executeGraphTaskUntilReadyQueueEmpty(task, root, new InputBuffer(0));
}

/** Releases the hold on the GraphTask and completes it (final callbacks, leftovers check). */
export function finishGraphTask(task: GraphTask): void {
  task.outstandingTasks--;
  if (!task.futureCompleted) getEngine().finish(task);
}
