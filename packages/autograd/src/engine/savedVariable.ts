import type { Tensor } from '@wiregrad/tensor';
import { AutogradError } from '../errors.js';
import { peekMeta } from './autogradMeta.js';
import type { Node } from './node.js';

export const GRAPH_FREED_MESSAGE =
  'Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.';

/** PyTorch's SavedVariable: a tensor saved for backward with the version it had. */
export class SavedVariable {
  private tensor: Tensor | null;
  private readonly version: number;
  private readonly producer: string | null;
  private readonly outputNr: number;

  constructor(t: Tensor) {
    if (peekMeta(t)?.inference) {
      throw new AutogradError('INFERENCE_TENSOR', 'Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd.');
    }
    this.tensor = t;
    this.version = t.version;
    this.producer = t.gradFn?.name() ?? null;
    this.outputNr = peekMeta(t)?.outputNr ?? 0;
  }

  unpack(by?: Node): Tensor {
    const t = this.tensor;
    if (!t) throw new AutogradError('GRAPH_FREED', GRAPH_FREED_MESSAGE);
    if (t.version !== this.version) {
      const type = { float32: 'torch.FloatTensor', float64: 'torch.DoubleTensor', int32: 'torch.IntTensor', bool: 'torch.BoolTensor' }[t.dtype];
      const where = this.producer ? `output ${this.outputNr} of ${this.producer}` : by ? `an input of ${by.name()}` : 'a leaf';
      throw new AutogradError(
        'INPLACE_MODIFIED',
        `one of the variables needed for gradient computation has been modified by an inplace operation: [${type} [${t.shape.join(', ')}]], which is ${where}, is at version ${t.version}; expected version ${this.version} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with setDetectAnomaly(true).`,
      );
    }
    return t;
  }

  release(): void {
    this.tensor = null;
  }
}
