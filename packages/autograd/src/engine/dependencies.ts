import type { Edge } from './edge.js';
import { type Capture, ExecInfo, type GraphTask } from './graphTask.js';
import type { Node } from './node.js';

/** The smallest topologicalNr among the requested outputs (0 when there are none). */
export function computeMinTopologicalNr(outputs: readonly Edge[]): number {
  let min = Number.MAX_SAFE_INTEGER;
  for (const e of outputs) if (e.node) min = Math.min(min, e.node.topologicalNr);
  return outputs.length === 0 ? 0 : min;
}

/**
 * PyTorch's compute_dependencies: counts, for every node reachable from `root`, how many
 * edges point at it. Iterative (no recursion over graph depth); nodes whose topologicalNr is
 * below `minTopoNr` are counted but not expanded. See Note [Topological Number].
 */
export function computeDependencies(root: Node, task: GraphTask, minTopoNr: number): void {
  const stack: Node[] = [root];
  task.nodesInGraph.add(root);
  while (stack.length > 0) {
    const fn = stack.pop()!;
    if (fn.topologicalNr < minTopoNr) continue;
    for (const edge of fn.nextEdges) {
      const next = edge.node;
      if (!next) continue;
      task.dependencies.set(next, (task.dependencies.get(next) ?? 0) + 1);
      if (!task.nodesInGraph.has(next)) {
        task.nodesInGraph.add(next);
        stack.push(next);
      }
    }
  }
}

function execInfoFor(task: GraphTask, node: Node): ExecInfo {
  let info = task.execInfo.get(node);
  if (!info) task.execInfo.set(node, (info = new ExecInfo()));
  return info;
}

/**
 * PyTorch's init_to_execute: for grad() (accumulateGrad false) each output edge becomes a
 * Capture; for backward(inputs=) the output nodes are marked needed. Then every node on a
 * path from `root` to an output is marked needed, by an iterative post-order walk.
 */
export function initToExecute(
  root: Node,
  task: GraphTask,
  outputs: readonly Edge[],
  accumulateGrad: boolean,
  minTopoNr: number,
): void {
  outputs.forEach((edge, outputIdx) => {
    if (!edge.node) return;
    const info = execInfoFor(task, edge.node);
    if (accumulateGrad) info.needed = true;
    else (info.captures ??= []).push({ inputIdx: edge.inputNr, outputIdx, hooks: [] } satisfies Capture);
  });
  task.capturedVars = accumulateGrad ? [] : new Array<null>(outputs.length).fill(null);

  const visited = new Set<Node>([root]);
  const frames: { fn: Node; child: number }[] = [{ fn: root, child: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const edges = frame.fn.nextEdges;
    if (frame.child < edges.length) {
      const next = edges[frame.child++]!.node;
      if (!next) continue;
      if (visited.has(next) || next.topologicalNr < minTopoNr) {
        if (task.execInfo.get(next)?.shouldExecute()) execInfoFor(task, frame.fn).needed = true;
        continue;
      }
      visited.add(next);
      frames.push({ fn: next, child: 0 });
      continue;
    }
    frames.pop();
    const parent = frames[frames.length - 1];
    if (parent && task.execInfo.get(frame.fn)?.shouldExecute()) execInfoFor(task, parent.fn).needed = true;
  }
}
