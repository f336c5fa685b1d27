import type { Tensor } from '@wiregrad/tensor';
import { isAnomalyEnabled } from '../anomalyMode.js';
import { AutogradError } from '../errors.js';
import { isInference } from '../inference.js';
import { peekMeta } from './autogradMeta.js';
import type { Node } from './node.js';

export const GRAPH_FREED_MESSAGE =
  'Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retainGraph: true if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.';

const TYPE_NAMES = { float32: 'FloatTensor', float64: 'DoubleTensor', int32: 'IntTensor', bool: 'BoolTensor' } as const;

/** PyTorch's Tensor.toString(): `torch.FloatTensor`, `torch.gpu.FloatTensor` (PyTorch: torch.cuda.*) */
const typeString = (t: Tensor) => `torch.${t.device.type === 'cpu' ? '' : `${t.device.type}.`}${TYPE_NAMES[t.dtype]}`;

/**
 * PyTorch's SavedVariable: a tensor saved for backward with the version it had then. An
 * output of the saving node is told apart from an input (PyTorch's is_output) only for the
 * error text: an input names its current grad_fn, an output the node that saved it.
 * It holds the tensor's storage until release() (Note [Releasing storages]): disposing the
 * tensor meanwhile leaves the memory alive for backward; once backward frees the graph the
 * storage is freed or cached if nothing else holds it.
 */
export class SavedVariable {
  private tensor: Tensor | null;
  private readonly version: number;
  private readonly isLeaf: boolean;
  private readonly outputNr: number;

  constructor(
    t: Tensor,
    private readonly isOutput: boolean,
  ) {
    if (isInference(t)) {
      throw new AutogradError(
        'INFERENCE_TENSOR',
        'Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd.',
      );
    }
    this.tensor = t;
    t.storage.retain();
    this.version = t.version;
    this.isLeaf = t.isLeaf;
    this.outputNr = peekMeta(t)?.outputNr ?? 0;
  }

  /** The saved tensor, checked against in-place changes since it was saved; `savedFor` is the node asking. */
  unpack(savedFor?: Node): Tensor {
    const t = this.tensor;
    if (!t) throw new AutogradError('GRAPH_FREED', GRAPH_FREED_MESSAGE);
    if (t.version !== this.version) {
      let gradFn = this.isOutput ? null : ((t.gradFn as Node | null) ?? null);
      if (!this.isLeaf && !gradFn) gradFn = savedFor ?? null;
      const which = gradFn ? `, which is output ${this.outputNr} of ${gradFn.name()},` : '';
      const hint = isAnomalyEnabled()
        ? 'Hint: the backtrace further above shows the operation that failed to compute its gradient. The variable in question was changed in there or anywhere later. Good luck!'
        : 'Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).';
      throw new AutogradError(
        'INPLACE_MODIFIED',
        `one of the variables needed for gradient computation has been modified by an inplace operation: [${typeString(t)} [${t.shape.join(', ')}]]${which} is at version ${t.version}; expected version ${this.version} instead. ${hint}`,
      );
    }
    return t;
  }

  /** The saved tensor without any check (null once released). */
  peek(): Tensor | null {
    return this.tensor;
  }

  release(): void {
    const t = this.tensor;
    if (t === null) return;
    this.tensor = null;
    t.storage.release();
  }
}
