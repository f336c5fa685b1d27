import { platform } from '#platform';
import { isAnomalyEnabled } from '../anomalyMode.js';
import type { Node } from './node.js';
import { currentNode } from './threadState.js';

/** Frames kept of a forward call's stack: enough to reach user code below the ops and the engine. */
const TRACE_FRAMES = 64;

/**
 * Note [Anomaly metadata]
 * PyTorch's AnomalyMetadata: under anomaly mode every node records, when it is created, the
 * forward call that made it (a stack trace) and its parent, the node the engine was running
 * then (set for nodes recorded during a backward: a reentrant backward, checkpoint's
 * recomputation, createGraph). When a node fails in backward, the first error of the pass
 * prints, as PyTorch's print_stack, one UserWarning "Error detected in <node>" with that
 * trace, then one "Previous calculation was induced by <parent>" per ancestor. A node made
 * while anomaly mode was off (no trace: its forward ran outside detectAnomaly, or the first
 * backward of a double backward did) is named with "No forward pass information available",
 * as PyTorch's _print_stack does for a missing trace, and ends the chain (such a node has no
 * recorded parent either). The error itself is left as thrown.
 */
export class AnomalyMetadata {
  readonly trace: string;
  readonly parent: Node | null;

  private constructor() {
    // V8 keeps 10 frames by default, fewer than the engine's own below user code
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = TRACE_FRAMES;
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    // drop the "Error" line: what is left are the frames of the forward call
    this.trace = stack.split('\n').slice(1).join('\n');
    this.parent = currentNode();
  }

  /** The metadata of a node created now; null outside anomaly mode (Note [Node memory]: nodes carry nothing then). */
  static capture(): AnomalyMetadata | null {
    return isAnomalyEnabled() ? new AnomalyMetadata() : null;
  }
}

/** PyTorch's AnomalyMetadata::print_stack for a failed node: its forward trace, then its parents'. */
export function printStack(fn: Node): void {
  let meta = fn.anomalyMetadata;
  if (!meta) return noForwardTrace(fn);
  platform.warn(
    `Error detected in ${fn.name()}. Traceback of forward call that caused the error:\n${meta.trace}`,
    'UserWarning',
  );
  for (let parent = meta.parent; parent; parent = meta.parent) {
    meta = parent.anomalyMetadata;
    if (!meta) return noForwardTrace(parent);
    platform.warn(
      `\n\nPrevious calculation was induced by ${parent.name()}. Traceback of forward call that induced the previous calculation:\n${meta.trace}`,
      'UserWarning',
    );
  }
}

/** PyTorch's _print_stack for a node without a trace (made while anomaly mode was off). */
function noForwardTrace(fn: Node): void {
  platform.warn(
    `Error detected in ${fn.name()}. No forward pass information available. Enable detect anomaly during forward pass for more information.`,
    'UserWarning',
  );
}
