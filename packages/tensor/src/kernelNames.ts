/**
 * Note [Kernel names]
 * Every primitive the tensor package computes is one kernel name. An op (ops/<op>.ts)
 * validates, promotes dtypes and calls `runKernel(Name, inputs, attrs)`; each device
 * registers one kernel per name (backends/<device>/kernels/<op>.ts); @wiregrad/autograd
 * registers one gradient per name. Composite ops (mean, var, softmax's callers, matmul's
 * reshapes, stack, split...) call other ops and need no kernel or gradient of their own.
 *
 * Contract of each kernel (inputs, attrs -> outputs; their types are KernelSpecs in
 * kernelSpecs.ts, Note [Kernel specs]):
 * - Binary elementwise (Add..Minimum): inputs [a, b] of one dtype (the op casts them),
 *   broadcast together; output of that dtype. Comparisons (Equal..GreaterEqual) output bool.
 * - Unary elementwise (Neg..LogicalNot): inputs [x]; output of x's dtype (LogicalNot: bool).
 * - Clamp: [x], {min: number | null, max: number | null}.
 * - Where: [cond(bool), a, b] with a, b of one dtype, all broadcast.
 * - Cast: [x], {dtype}. Copy: [x] -> contiguous copy. ToDevice: [x], {device}.
 * - Reductions Sum, Prod: [x], {dims: number[] (normalized, sorted, empty = all), keepdim}.
 * - Max, Min: [x], {dim: number | null, keepdim}: dim null -> [values(0-dim)]; else [values, indices(int32)].
 * - Argmax, Argmin: [x], {dim: number | null, keepdim} -> [indices(int32)] (dim null: index into the flattened tensor).
 * - Softmax, LogSoftmax: [x], {dim}.
 * - BatchMatMul: [a [B,M,K], b [B,K,N]] -> [B,M,N], or [a [M,K], b [K,N]] -> [M,N], same dtype
 *   (Note [Matrices through BatchMatMul]).
 * - Views (no copy; storage shared): Reshape {shape} (copies only when the strides cannot
 *   express it), Permute {dims}, Expand {shape}, Slice {dim, start, end, step}, Select {dim, index}
 *   (the slice at index without dim).
 * - Multi-output views (Note [Multi-output views]): Split [x], {dim, sizes} -> one view per size,
 *   consecutive along dim; Unbind [x], {dim} -> one view per index along dim, without that dim.
 * - SliceScatter: [src], {inputShape, dim, start, end, step} -> zeros(inputShape) with the
 *   slice filled by src (the gradient of Slice).
 * - Gather: [x, index], {dim}. ScatterAdd: [x, index, src], {dim} -> x + scattered src (new tensor).
 * - IndexSelect: [x, index(int32 1-D)], {dim}. IndexAdd: [x, index, src], {dim} -> new tensor.
 * - MaskedFill: [x, mask(bool)], {value}. OneHot: [index(int32)], {numClasses} -> int32.
 * - Cat: inputs [...tensors] (one dtype), {dim}.
 * - Im2Col: [x [N, C, H, W]], {kernel, stride, padding [t, b, l, r], dilation, outSize, padValue}
 *   -> [N, C·kh·kw, oh·ow] (torch's im2col / F.unfold). Col2Im: [cols], the same geometry plus
 *   {inputSize} -> [N, C, H, W], its adjoint (F.fold). Conv and pooling ops are composites of them.
 * - In-place (bump storage.version, return the target itself): CopyInto [dst, src] (src
 *   broadcast to dst and cast to its dtype), Fill [dst], {value}.
 */
export const Add = 'Add';
export const Sub = 'Sub';
export const Mul = 'Mul';
export const Div = 'Div';
export const Pow = 'Pow';
export const Maximum = 'Maximum';
export const Minimum = 'Minimum';
export const Equal = 'Equal';
export const NotEqual = 'NotEqual';
export const Less = 'Less';
export const LessEqual = 'LessEqual';
export const Greater = 'Greater';
export const GreaterEqual = 'GreaterEqual';

export const Neg = 'Neg';
export const Exp = 'Exp';
export const Log = 'Log';
export const Log1p = 'Log1p';
export const Sqrt = 'Sqrt';
export const Rsqrt = 'Rsqrt';
export const Abs = 'Abs';
export const Sign = 'Sign';
export const Sin = 'Sin';
export const Cos = 'Cos';
export const Tanh = 'Tanh';
export const Sigmoid = 'Sigmoid';
export const Relu = 'Relu';
export const Gelu = 'Gelu';
export const Silu = 'Silu';
export const Softplus = 'Softplus';
export const LogicalNot = 'LogicalNot';
export const Clamp = 'Clamp';
export const Where = 'Where';

export const Cast = 'Cast';
export const Copy = 'Copy';
export const ToDevice = 'ToDevice';

export const Sum = 'Sum';
export const Prod = 'Prod';
export const Max = 'Max';
export const Min = 'Min';
export const Argmax = 'Argmax';
export const Argmin = 'Argmin';
export const Softmax = 'Softmax';
export const LogSoftmax = 'LogSoftmax';

export const BatchMatMul = 'BatchMatMul';

export const Reshape = 'Reshape';
export const Permute = 'Permute';
export const Expand = 'Expand';
export const Slice = 'Slice';
export const Select = 'Select';
export const Split = 'Split';
export const Unbind = 'Unbind';
export const SliceScatter = 'SliceScatter';

export const Gather = 'Gather';
export const ScatterAdd = 'ScatterAdd';
export const IndexSelect = 'IndexSelect';
export const IndexAdd = 'IndexAdd';
export const MaskedFill = 'MaskedFill';
export const OneHot = 'OneHot';
export const Cat = 'Cat';

export const Im2Col = 'Im2Col';
export const Col2Im = 'Col2Im';

export const CopyInto = 'CopyInto';
export const Fill = 'Fill';

/**
 * Fused kernels: cpu only and outside ALL_KERNELS (no gpu kernel, no registered gradient);
 * custom autograd Functions call them where hasKernel says so and compose their own backward.
 * - AddmmActivation: [bias [N], mat1 [M,K], mat2 [K,N]] -> relu(mat1 @ mat2 + bias), float32
 *   or float64 (PyTorch's _addmm_activation with ReLU; Note [Gemm epilogue]).
 */
export const AddmmActivation = 'AddmmActivation';
/**
 * - BinaryInto: [x, y] -> x, written in place with x op y (attrs.op: Add, Sub, Mul or Div),
 *   for float32 x contiguous and y broadcast to x's shape; with attrs.alpha (op Add, y of x's
 *   shape) x + alpha y; what add_, sub_, mul_ and div_ run when no graph is recorded
 *   (Note [In-place fast path]).
 */
export const BinaryInto = 'BinaryInto';
/**
 * - ThresholdBackward: [grad, y] -> grad where y > attrs.threshold, else 0 (NaN in y passes
 *   grad), of grad's shape and dtype: PyTorch's threshold_backward, ReLU's backward at threshold 0,
 *   in one pass instead of a comparison and a masked fill; float32 at threshold 0 on the SIMD kernels.
 */
export const ThresholdBackward = 'ThresholdBackward';

/** Kernels that write into inputs[0] instead of allocating an output. */
export const INPLACE_KERNELS: ReadonlySet<string> = new Set([CopyInto, Fill, BinaryInto]);

/** Kernels whose outputs share storage with inputs[0]. */
export const VIEW_KERNELS: ReadonlySet<string> = new Set([Reshape, Permute, Expand, Slice, Select, Split, Unbind]);

/** Every kernel name, for registries and coverage tests. */
export const ALL_KERNELS: readonly string[] = [
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Maximum,
  Minimum,
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Neg,
  Exp,
  Log,
  Log1p,
  Sqrt,
  Rsqrt,
  Abs,
  Sign,
  Sin,
  Cos,
  Tanh,
  Sigmoid,
  Relu,
  Gelu,
  Silu,
  Softplus,
  LogicalNot,
  Clamp,
  Where,
  Cast,
  Copy,
  ToDevice,
  Sum,
  Prod,
  Max,
  Min,
  Argmax,
  Argmin,
  Softmax,
  LogSoftmax,
  BatchMatMul,
  Reshape,
  Permute,
  Expand,
  Slice,
  Select,
  Split,
  Unbind,
  SliceScatter,
  Gather,
  ScatterAdd,
  IndexSelect,
  IndexAdd,
  MaskedFill,
  OneHot,
  Cat,
  Im2Col,
  Col2Im,
  CopyInto,
  Fill,
];
