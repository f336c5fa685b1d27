import type { Device } from './device.js';
import type { DType } from './dtype.js';
import type { Tensor } from './tensor.js';

/**
 * Note [Kernel specs]
 * `KernelSpecs` is the contract of every kernel of Note [Kernel names]: its inputs (a tuple,
 * or any number for Cat) and its attrs, as tfjs's kernel_names.ts states them. `runKernel`,
 * `registerKernel` and every backend's kernels are typed from it, so an op cannot call a
 * kernel with attrs it does not read and a kernel cannot read an attr no op passes. Attrs are
 * type aliases (not interfaces) so that they stay assignable to the erased `Attrs` the
 * autograd hooks see; `gradFnName` is the optional name autograd gives the node (Note
 * [Autograd hooks]), where an op sets one. A package that registers a kernel of its own adds
 * it to KernelSpecs by declaration merging (`declare module`). The registry stores each kernel
 * with its types erased (`ErasedKernelFunc`): the check is at registerKernel and runKernel.
 */
export type NoAttrs = Readonly<Record<string, never>>;

/** The sliding-window geometry Im2Col and Col2Im share (see Note [im2col] in ops/conv.ts). */
export type WindowGeometry = {
  kernel: [number, number];
  stride: [number, number];
  /** top, bottom, left, right */
  padding: [number, number, number, number];
  dilation: [number, number];
  /** output rows and columns (the number of window positions) */
  outSize: [number, number];
};

type Spec<I extends readonly Tensor[], A = NoAttrs> = { inputs: I; attrs: A };
type One = readonly [x: Tensor];
type Binary = Spec<readonly [a: Tensor, b: Tensor]>;
type Unary = Spec<One>;
type Named = { gradFnName?: string };
type Fold = Spec<One, { dims: number[]; keepdim: boolean }>;
type Extremum = Spec<One, { dim: number | null; keepdim: boolean }>;
type AlongDim = { dim: number };

export interface KernelSpecs {
  Add: Binary;
  Sub: Binary;
  Mul: Binary;
  Div: Binary;
  Pow: Binary;
  Maximum: Binary;
  Minimum: Binary;
  Equal: Binary;
  NotEqual: Binary;
  Less: Binary;
  LessEqual: Binary;
  Greater: Binary;
  GreaterEqual: Binary;
  Neg: Unary;
  Exp: Unary;
  Log: Unary;
  Log1p: Unary;
  Sqrt: Unary;
  Rsqrt: Unary;
  Abs: Unary;
  Sign: Unary;
  Sin: Unary;
  Cos: Unary;
  Tanh: Unary;
  Sigmoid: Unary;
  Relu: Unary;
  Gelu: Unary;
  Silu: Unary;
  Softplus: Unary;
  LogicalNot: Unary;
  Clamp: Spec<One, { min: number | null; max: number | null }>;
  Where: Spec<readonly [cond: Tensor, a: Tensor, b: Tensor]>;
  Cast: Spec<One, { dtype: DType }>;
  Copy: Unary;
  ToDevice: Spec<One, { device: Device }>;
  Sum: Fold;
  Prod: Fold;
  Max: Extremum;
  Min: Extremum;
  Argmax: Extremum;
  Argmin: Extremum;
  Softmax: Spec<One, AlongDim>;
  LogSoftmax: Spec<One, AlongDim>;
  BatchMatMul: Binary;
  Reshape: Spec<One, { shape: readonly number[] } & Named>;
  Permute: Spec<One, { dims: readonly number[] }>;
  Expand: Spec<One, { shape: readonly number[] }>;
  Slice: Spec<One, { dim: number; start: number; end: number; step: number }>;
  Select: Spec<One, { dim: number; index: number }>;
  Split: Spec<One, { dim: number; sizes: readonly number[] } & Named>;
  Unbind: Spec<One, AlongDim>;
  SliceScatter: Spec<One, { inputShape: readonly number[]; dim: number; start: number; end: number; step: number }>;
  Gather: Spec<readonly [x: Tensor, index: Tensor], AlongDim>;
  ScatterAdd: Spec<readonly [x: Tensor, index: Tensor, src: Tensor], AlongDim>;
  IndexSelect: Spec<readonly [x: Tensor, index: Tensor], AlongDim>;
  IndexAdd: Spec<readonly [x: Tensor, index: Tensor, src: Tensor], AlongDim>;
  MaskedFill: Spec<readonly [x: Tensor, mask: Tensor], { value: number }>;
  OneHot: Spec<One, { numClasses: number }>;
  Cat: Spec<readonly Tensor[], AlongDim>;
  Im2Col: Spec<One, WindowGeometry & { padValue: number }>;
  Col2Im: Spec<One, WindowGeometry & { inputSize: [number, number] }>;
  CopyInto: Spec<readonly [dst: Tensor, src: Tensor], Named>;
  Fill: Spec<readonly [dst: Tensor], { value: number } & Named>;
  AddmmActivation: Spec<readonly [bias: Tensor, mat1: Tensor, mat2: Tensor]>;
  ThresholdBackward: Spec<readonly [grad: Tensor, y: Tensor], { threshold: number }>;
  BinaryInto: Spec<readonly [x: Tensor, y: Tensor], { op: 'Add' | 'Sub' | 'Mul' | 'Div'; alpha?: number }>;
}

export type KernelName = keyof KernelSpecs;
export type KernelInputs<N extends KernelName> = KernelSpecs[N]['inputs'];
export type KernelAttrs<N extends KernelName> = KernelSpecs[N]['attrs'];

/** runKernel's attrs argument: optional for a kernel without attrs, required otherwise. */
export type AttrsArg<N extends KernelName> =
  KernelAttrs<N> extends NoAttrs ? [attrs?: NoAttrs] : [attrs: KernelAttrs<N>];

/** The kernels of one signature, for kernels written once for several names. */
export type KernelsLike<S> = { [N in KernelName]: KernelSpecs[N] extends S ? N : never }[KernelName];
export type BinaryKernelName = KernelsLike<Binary>;
export type UnaryKernelName = KernelsLike<Unary>;
export type FoldKernelName = KernelsLike<Fold>;
export type ExtremumKernelName = KernelsLike<Extremum>;
export type SoftmaxKernelName = 'Softmax' | 'LogSoftmax';
export type IndexAddKernelName = 'ScatterAdd' | 'IndexAdd';

const isKeyOf = <K extends string>(table: Readonly<Record<K, unknown>>, name: string): name is K =>
  Object.hasOwn(table, name);

/** The entries of a table keyed by kernel names, the names typed (Object.entries types them string). */
export function kernelEntries<K extends KernelName, V>(table: Readonly<Record<K, V>>): [K, V][] {
  const out: [K, V][] = [];
  for (const [name, v] of Object.entries<V>(table)) if (isKeyOf(table, name)) out.push([name, v]);
  return out;
}
