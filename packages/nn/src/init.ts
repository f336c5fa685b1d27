// torch.nn.init: in-place initialisers under noGrad, PyTorch's formulas and messages.
import { type Tensor, empty, eye, noGrad, normal_ as fillNormal, uniform_ as fillUniform } from '@wiregrad/autograd';
import { NnError } from './errors.js';

export type Nonlinearity =
  | 'linear'
  | 'conv1d'
  | 'conv2d'
  | 'conv3d'
  | 'conv_transpose1d'
  | 'conv_transpose2d'
  | 'conv_transpose3d'
  | 'sigmoid'
  | 'tanh'
  | 'relu'
  | 'leaky_relu'
  | 'selu';

const LINEAR_FNS: ReadonlySet<string> = new Set([
  'linear',
  'conv1d',
  'conv2d',
  'conv3d',
  'conv_transpose1d',
  'conv_transpose2d',
  'conv_transpose3d',
]);

/** The recommended gain for a nonlinearity (PyTorch's table; `param` is leaky_relu's negative slope, default 0.01). */
export function calculateGain(nonlinearity: Nonlinearity, param?: number): number {
  if (LINEAR_FNS.has(nonlinearity) || nonlinearity === 'sigmoid') return 1;
  if (nonlinearity === 'tanh') return 5.0 / 3;
  if (nonlinearity === 'relu') return Math.sqrt(2.0);
  if (nonlinearity === 'leaky_relu') {
    if (param !== undefined && typeof param !== 'number')
      throw new NnError('INVALID_ARGUMENT', `negative_slope ${String(param)} not a valid number`);
    const slope = param ?? 0.01;
    return Math.sqrt(2.0 / (1 + slope ** 2));
  }
  if (nonlinearity === 'selu') return 3.0 / 4;
  throw new NnError('INVALID_ARGUMENT', `Unsupported nonlinearity ${String(nonlinearity)}`);
}

/** [fanIn, fanOut]: dim 1 and dim 0 times the receptive field (the product of the dims after 1). */
export function calculateFanInAndFanOut(t: Tensor): [number, number] {
  if (t.ndim < 2)
    throw new NnError(
      'INVALID_ARGUMENT',
      'Fan in and fan out can not be computed for tensor with fewer than 2 dimensions',
    );
  const receptive = t.shape.slice(2).reduce((a, b) => a * b, 1);
  return [t.shape[1]! * receptive, t.shape[0]! * receptive];
}

export type FanMode = 'fan_in' | 'fan_out';

function correctFan(t: Tensor, mode: FanMode): number {
  if (mode !== 'fan_in' && mode !== 'fan_out')
    throw new NnError('INVALID_ARGUMENT', `Mode ${String(mode)} not supported, please use one of fan_in, fan_out`);
  const [fanIn, fanOut] = calculateFanInAndFanOut(t);
  return mode === 'fan_in' ? fanIn : fanOut;
}

/** Fills `t` in place under noGrad; values are drawn on the cpu (one generator for every device) and copied over. */
function fill(t: Tensor, draw: (cpu: Tensor) => Tensor): Tensor {
  return noGrad(() =>
    t.device.type === 'cpu' ? draw(t) : t.copy_(draw(empty([...t.shape], { dtype: t.dtype })).to(t.device)),
  );
}

/** Values uniform in [a, b). */
export function uniform_(t: Tensor, a = 0, b = 1): Tensor {
  return fill(t, (c) => fillUniform(c, a, b));
}

/** Values normal with the given mean and std. */
export function normal_(t: Tensor, mean = 0, std = 1): Tensor {
  return fill(t, (c) => fillNormal(c, mean, std));
}

export function constant_(t: Tensor, value: number): Tensor {
  return noGrad(() => t.fill_(value));
}

export const ones_ = (t: Tensor): Tensor => constant_(t, 1);
export const zeros_ = (t: Tensor): Tensor => constant_(t, 0);

/** The identity matrix in a 2-D tensor. */
export function eye_(t: Tensor): Tensor {
  if (t.ndim !== 2) throw new NnError('INVALID_ARGUMENT', 'Only tensors with 2 dimensions are supported');
  return noGrad(() => t.copy_(eye(t.shape[0]!, t.shape[1]!, { dtype: t.dtype })));
}

/** Glorot uniform: bound = gain sqrt(6 / (fanIn + fanOut)). */
export function xavierUniform_(t: Tensor, gain = 1): Tensor {
  const [fanIn, fanOut] = calculateFanInAndFanOut(t);
  const a = Math.sqrt(3.0) * gain * Math.sqrt(2.0 / (fanIn + fanOut));
  return uniform_(t, -a, a);
}

/** Glorot normal: std = gain sqrt(2 / (fanIn + fanOut)). */
export function xavierNormal_(t: Tensor, gain = 1): Tensor {
  const [fanIn, fanOut] = calculateFanInAndFanOut(t);
  return normal_(t, 0, gain * Math.sqrt(2.0 / (fanIn + fanOut)));
}

export interface KaimingOptions {
  /** negative slope of the rectifier after this layer (leaky_relu only), default 0 */
  a?: number;
  mode?: FanMode;
  nonlinearity?: Nonlinearity;
}

/** He uniform: bound = gain(nonlinearity, a) sqrt(3 / fan). Linear and Conv use a = √5 (bound 1/√fanIn). */
export function kaimingUniform_(t: Tensor, opts: KaimingOptions = {}): Tensor {
  const { a = 0, mode = 'fan_in', nonlinearity = 'leaky_relu' } = opts;
  if (t.numel === 0) return t;
  const std = calculateGain(nonlinearity, a) / Math.sqrt(correctFan(t, mode));
  const bound = Math.sqrt(3.0) * std;
  return uniform_(t, -bound, bound);
}

/** He normal: std = gain(nonlinearity, a) / sqrt(fan). */
export function kaimingNormal_(t: Tensor, opts: KaimingOptions = {}): Tensor {
  const { a = 0, mode = 'fan_in', nonlinearity = 'leaky_relu' } = opts;
  if (t.numel === 0) return t;
  return normal_(t, 0, calculateGain(nonlinearity, a) / Math.sqrt(correctFan(t, mode)));
}
