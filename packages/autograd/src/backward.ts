import { type Tensor, onesLike, zerosLike } from '@wiregrad/tensor';
import { getEngine } from './engine/engine.js';
import type { Edge } from './engine/edge.js';
import { gradientEdge } from './engine/gradientEdge.js';
import type { Grads } from './engine/node.js';
import { AutogradError } from './errors.js';

export interface BackwardOptions {
  retainGraph?: boolean;
  createGraph?: boolean;
  inputs?: Tensor[];
}

export interface GradOptions {
  gradOutputs?: Tensor | (Tensor | null)[];
  retainGraph?: boolean;
  createGraph?: boolean;
  allowUnused?: boolean;
  materializeGrads?: boolean;
}

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** Root edges and seed gradients, with PyTorch's checks (scalar seeds, tensors that require grad). */
function rootsOf(tensors: Tensor[], grads: (Tensor | null | undefined)[]): { roots: Edge[]; seeds: Grads } {
  if (grads.length > 0 && grads.length !== tensors.length) {
    throw new AutogradError('INVALID_GRADIENT', `grad_tensors has ${grads.length} elements, but tensors has ${tensors.length}`);
  }
  const roots: Edge[] = [];
  const seeds: Grads = [];
  tensors.forEach((t, i) => {
    if (!t.requiresGrad) {
      throw new AutogradError('NO_GRAD_FN', `element ${i} of tensors does not require grad and does not have a grad_fn`);
    }
    let g = grads[i] ?? null;
    if (!g) {
      if (t.numel !== 1) throw new AutogradError('NOT_SCALAR', 'grad can be implicitly created only for scalar outputs');
      g = onesLike(t);
    }
    roots.push(gradientEdge(t));
    seeds.push(g);
  });
  return { roots, seeds };
}

function inputEdges(inputs: Tensor[], what: string): Edge[] {
  return inputs.map((t, i) => {
    if (!t.requiresGrad) throw new AutogradError('NO_GRAD_FN', `One of the differentiated Tensors does not require grad (${what} ${i})`);
    return gradientEdge(t);
  });
}

/** Accumulates d(tensors)/d(leaves) into the leaves' `.grad` (torch.autograd.backward). */
export function backward(tensors: Tensor | Tensor[], gradTensors: Tensor | (Tensor | null)[] = [], opts: BackwardOptions = {}): void {
  const { roots, seeds } = rootsOf(asList(tensors), asList(gradTensors));
  const createGraph = opts.createGraph ?? false;
  const outputs = opts.inputs ? inputEdges(opts.inputs, 'inputs') : [];
  if (opts.inputs?.length === 0) throw new AutogradError('INVALID_GRADIENT', "'inputs' argument to backward() cannot be empty.");
  getEngine().execute(roots, seeds, opts.retainGraph ?? createGraph, createGraph, true, outputs);
}

/** The same as backward(), driven asynchronously through the engine's lanes. */
export async function backwardAsync(tensors: Tensor | Tensor[], gradTensors: Tensor | (Tensor | null)[] = [], opts: BackwardOptions = {}): Promise<void> {
  const { roots, seeds } = rootsOf(asList(tensors), asList(gradTensors));
  const createGraph = opts.createGraph ?? false;
  const outputs = opts.inputs ? inputEdges(opts.inputs, 'inputs') : [];
  await getEngine().executeAsync(roots, seeds, opts.retainGraph ?? createGraph, createGraph, true, outputs);
}

/** d(outputs)/d(inputs) without touching `.grad` (torch.autograd.grad). */
export function grad(outputs: Tensor | Tensor[], inputs: Tensor | Tensor[], opts: GradOptions = {}): (Tensor | null)[] {
  const ins = asList(inputs);
  const { roots, seeds } = rootsOf(asList(outputs), opts.gradOutputs === undefined ? [] : asList(opts.gradOutputs));
  const createGraph = opts.createGraph ?? false;
  const result = getEngine().execute(roots, seeds, opts.retainGraph ?? createGraph, createGraph, false, inputEdges(ins, 'input'));
  return result.map((g, i) => {
    if (g) return g;
    if (opts.materializeGrads) return zerosLike(ins[i]!);
    if (!opts.allowUnused) {
      throw new AutogradError(
        'UNUSED_INPUT',
        'One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.',
      );
    }
    return null;
  });
}
