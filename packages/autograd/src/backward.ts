import { type Tensor, onesLike, zerosLike } from '@wiregrad/tensor';
import { getEngine } from './engine/engine.js';
import type { Edge } from './engine/edge.js';
import { gradientEdge } from './engine/gradientEdge.js';
import type { Grads } from './engine/node.js';
import { AutogradError } from './errors.js';
import { retainGrad } from './hooks.js';
import { checkOptions, checkTensors } from './validate.js';

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
/** a shape as the JS API writes it (PyTorch prints torch.Size([3])) */
const size = (s: readonly number[]) => `[${s.join(', ')}]`;

/** Root edges and seed gradients, with PyTorch's checks (_make_grads, then run_backward's grad_fn check). */
function rootsOf(tensors: Tensor[], grads: (Tensor | null | undefined)[]): { roots: Edge[]; seeds: Grads } {
  if (grads.length > 0 && grads.length !== tensors.length) {
    throw new AutogradError(
      'INVALID_ARGUMENT',
      `gradTensors has ${grads.length} elements, but tensors has ${tensors.length}`,
    );
  }
  const roots: Edge[] = [];
  const seeds: Grads = [];
  tensors.forEach((t, i) => {
    let g = grads[i] ?? null;
    if (g) {
      if (g.shape.length !== t.shape.length || g.shape.some((s, k) => s !== t.shape[k])) {
        throw new AutogradError(
          'INVALID_GRADIENT',
          `Mismatch in shape: grad_output[${i}] has a shape of ${size(g.shape)} and output[${i}] has a shape of ${size(t.shape)}.`,
        );
      }
    } else if (t.requiresGrad) {
      if (t.numel !== 1)
        throw new AutogradError('NOT_SCALAR', 'grad can be implicitly created only for scalar outputs');
      g = onesLike(t);
    }
    if (!t.requiresGrad) {
      throw new AutogradError(
        'NO_GRAD_FN',
        `element ${i} of tensors does not require grad and does not have a grad_fn`,
      );
    }
    roots.push(gradientEdge(t));
    seeds.push(g);
  });
  return { roots, seeds };
}

/** The output edges of grad() / backward(inputs=): PyTorch's run_backward (a non-leaf input of backward retains its grad). */
function inputEdges(inputs: Tensor[], accumulateGrad: boolean): Edge[] {
  if (accumulateGrad && inputs.length === 0)
    throw new AutogradError('INVALID_ARGUMENT', "'inputs' argument to backward() cannot be empty.");
  return inputs.map((t) => {
    if (!t.requiresGrad)
      throw new AutogradError('NO_GRAD_FN', 'One of the differentiated Tensors does not require grad');
    if (accumulateGrad) retainGrad(t);
    return gradientEdge(t);
  });
}

const BACKWARD_FLAGS = ['retainGraph', 'createGraph'] as const;
const GRAD_FLAGS = ['retainGraph', 'createGraph', 'allowUnused', 'materializeGrads'] as const;

function backwardArgs(tensors: Tensor | Tensor[], gradTensors: Tensor | (Tensor | null)[], opts: BackwardOptions) {
  checkTensors('backward', 'tensors', tensors);
  checkTensors('backward', 'gradTensors', gradTensors, true);
  checkOptions('backward', opts, BACKWARD_FLAGS);
  if (opts.inputs !== undefined) checkTensors('backward', 'inputs', opts.inputs);
  const { roots, seeds } = rootsOf(asList(tensors), asList(gradTensors));
  const createGraph = opts.createGraph ?? false;
  const outputs = opts.inputs ? inputEdges(opts.inputs, true) : [];
  return [
    roots,
    seeds,
    { keepGraph: opts.retainGraph ?? createGraph, createGraph, accumulateGrad: true, outputs },
  ] as const;
}

/** Accumulates d(tensors)/d(leaves) into the leaves' `.grad` (torch.autograd.backward). */
export function backward(
  tensors: Tensor | Tensor[],
  gradTensors: Tensor | (Tensor | null)[] = [],
  opts: BackwardOptions = {},
): void {
  getEngine().execute(...backwardArgs(tensors, gradTensors, opts));
}

/** The same as backward(), driven asynchronously through the engine's lanes (Note [Device lanes]). */
export async function backwardAsync(
  tensors: Tensor | Tensor[],
  gradTensors: Tensor | (Tensor | null)[] = [],
  opts: BackwardOptions = {},
): Promise<void> {
  await getEngine().executeAsync(...backwardArgs(tensors, gradTensors, opts));
}

/** d(outputs)/d(inputs) without touching `.grad` (torch.autograd.grad). */
export function grad(outputs: Tensor | Tensor[], inputs: Tensor | Tensor[], opts: GradOptions = {}): (Tensor | null)[] {
  checkTensors('grad', 'outputs', outputs);
  checkTensors('grad', 'inputs', inputs);
  checkOptions('grad', opts, GRAD_FLAGS);
  if (opts.gradOutputs !== undefined) checkTensors('grad', 'gradOutputs', opts.gradOutputs, true);
  const ins = asList(inputs);
  if (opts.materializeGrads && opts.allowUnused === false) {
    throw new AutogradError(
      'INVALID_ARGUMENT',
      'Expected allowUnused to be true or not passed when materializeGrads: true, but got: allowUnused: false.',
    );
  }
  const { roots, seeds } = rootsOf(asList(outputs), opts.gradOutputs === undefined ? [] : asList(opts.gradOutputs));
  const createGraph = opts.createGraph ?? false;
  const result = getEngine().execute(roots, seeds, {
    keepGraph: opts.retainGraph ?? createGraph,
    createGraph,
    accumulateGrad: false,
    outputs: inputEdges(ins, false),
  });
  return result.map((g, i) => {
    if (g) return g;
    // PyTorch: zeros_like(input, requires_grad=create_graph), so a higher-order grad() can go through them
    if (opts.materializeGrads) return zerosLike(ins[i]!, { requiresGrad: createGraph });
    if (!opts.allowUnused) {
      throw new AutogradError(
        'UNUSED_INPUT',
        'One of the differentiated Tensors appears to not have been used in the graph. Set allowUnused: true if this is the desired behavior.',
      );
    }
    return null;
  });
}
