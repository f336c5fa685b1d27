import { CPU, add, add_, type Device, type Tensor } from '@wiregrad/tensor';
import type { Grads } from './node.js';
import type { OwnedGrads } from './ownedGrads.js';

/**
 * PyTorch's InputBuffer: the gradients arriving at one node, one slot per node input.
 * Gradients for the same slot are summed out of place (the first one is stored as is), or into
 * the one there when the engine owns it and nothing else holds it (PyTorch's accumulate steals
 * it in the same case): a weight used at every step of a recurrence gets one buffer, not a
 * fresh sum per step.
 */
export class InputBuffer {
  readonly buffer: Grads;

  constructor(size: number) {
    this.buffer = new Array<Tensor | null>(size).fill(null);
  }

  static of(grads: Grads): InputBuffer {
    const b = new InputBuffer(grads.length);
    grads.forEach((g, i) => b.add(i, g));
    return b;
  }

  /** Puts `t` into slot `pos`, summed with what is there; `owned` tracks the slots (Note [Gradients the engine owns]). */
  add(pos: number, t: Tensor | null, owned: OwnedGrads | null = null): void {
    if (!t) return;
    const old = this.buffer[pos];
    if (!old) {
      this.buffer[pos] = t;
      owned?.enter(t);
      return;
    }
    if (owned?.canAccumulateInto(old, t)) {
      add_(old, t);
      return;
    }
    const sum = add(old, t);
    this.buffer[pos] = sum;
    if (owned) {
      owned.adoptSum(sum);
      owned.leave(old);
    }
  }

  /** The first non-cpu device among the gradients, else cpu: it picks the ready queue. */
  device(): Device {
    for (const t of this.buffer) if (t && t.device.type !== 'cpu') return t.device;
    return CPU;
  }
}
