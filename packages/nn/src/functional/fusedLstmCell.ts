import {
  Function,
  type FunctionCtx,
  Tensor,
  type TypedArray,
  cat,
  isGradEnabled,
  keep,
  sigmoid,
  tanh,
  tensor,
  zerosLike,
} from '@wiregrad/autograd';

/**
 * Note [Fused LSTM cell]
 * The elementwise half of an LSTM step, from the gate pre-activations [N, 4H] (i, f, g, o:
 * x W_ihᵀ + b_ih + h W_hhᵀ + b_hh) and the cell state [N, H] to h' = σ(o) tanh(c') and
 * c' = σ(f) c + σ(i) tanh(g), runs as one custom Function (what PyTorch's CUDA LSTM does
 * with _thnn_fused_lstm_cell) instead of chunk, three sigmoids, two tanhs, three muls and
 * an add forward and about twenty nodes' kernels backward, each a pass over the batch and a
 * temporary, 64 times per layer in a sequence of 64. Forward is one pass that keeps the four
 * activations and tanh(c') (the transcendentals in two sigmoid kernels, SIMD in wasm for
 * float32: σ of the gates with g doubled, tanh(g) = 2σ(2g) - 1, then σ(2c'); that form is
 * within 1.2e-7 of tanh in float32); backward is one pass that writes the gates' gradient
 * [N, 4H] and c's [N, H]:
 *   dc = gc + gh σ(o) (1 - tanh²(c')),  d_i = dc tanh(g) σ(i)(1 - σ(i)),  d_f = dc c σ(f)(1 - σ(f)),
 *   d_g = dc σ(i) (1 - tanh²(g)),  d_o = gh tanh(c') σ(o)(1 - σ(o)),  dc_in = dc σ(f).
 * Both run in float64 and round once, on contiguous cpu float32/float64 operands; everything
 * else runs the composite. A backward that builds a graph (createGraph) composes the same
 * gradient from differentiable ops, so double backward still works.
 */
export function canFuseLstmCell(gates: Tensor, cx: Tensor): boolean {
  return (
    gates.ndim === 2 &&
    cx.ndim === 2 &&
    gates.device.type === 'cpu' &&
    cx.device.type === 'cpu' &&
    (gates.dtype === 'float32' || gates.dtype === 'float64') &&
    cx.dtype === gates.dtype &&
    gates.shape[0] === cx.shape[0] &&
    gates.shape[1] === 4 * cx.shape[1]!
  );
}

interface LstmCellCtx extends FunctionCtx {
  /** σ(i), σ(f), tanh(g), σ(o) per row, [N, 4H] like the gates */
  acts: TypedArray;
  /** tanh(c') [N, H] */
  tanhC: TypedArray;
}

/** The elements of `x`, contiguous. */
function elementsOf(x: Tensor): TypedArray {
  const c = x.contiguous();
  return c.storage.data.subarray(c.offset, c.offset + c.numel);
}

/** [4H] ones with 2 over the g quarter: σ(2g) gives tanh(g) = 2σ(2g) - 1 from the same sigmoid pass. */
const gateScales = new Map<string, Tensor>();
function gateScale(H: number, dtype: 'float32' | 'float64'): Tensor {
  const key = `${H} ${dtype}`;
  let scale = gateScales.get(key);
  if (!scale) {
    const v = new Float64Array(4 * H).fill(1).fill(2, 2 * H, 3 * H);
    scale = keep(tensor(v, { dtype }));
    gateScales.set(key, scale);
  }
  return scale;
}

/** σ(x), copied out of the sigmoid kernel's result (which is released at once). */
function sigmoidOf(x: Tensor): TypedArray {
  const s = sigmoid(x);
  const values = elementsOf(s).slice();
  s.dispose();
  return values;
}

class LstmCell extends Function {
  static override forward(ctx: LstmCellCtx, gates: Tensor, cx: Tensor): Tensor[] {
    const [N, H] = cx.shape as [number, number];
    const c = elementsOf(cx);
    const hy = Tensor.uninitialized([N, H], cx.dtype);
    const cy = Tensor.uninitialized([N, H], cx.dtype);
    const [h, cOut] = [hy.storage.data, cy.storage.data];
    // the transcendentals run in the sigmoid kernel (SIMD in wasm for float32 on the cpu device):
    // σ(i), σ(f), σ(o), and tanh(g) = 2σ(2g) - 1
    const scaled = gates.mul(gateScale(H, gates.dtype as 'float32' | 'float64'));
    const acts = sigmoidOf(scaled);
    scaled.dispose();
    for (let n = 0; n < N; n++) {
      const row = 4 * H * n;
      for (let j = 0; j < H; j++) {
        const g = 2 * acts[row + 2 * H + j]! - 1;
        acts[row + 2 * H + j] = g;
        const k = H * n + j;
        cOut[k] = acts[row + H + j]! * c[k]! + acts[row + j]! * g;
      }
    }
    // tanh(c') = 2σ(2c') - 1
    const twice = cy.mul(2);
    const tanhC = sigmoidOf(twice);
    twice.dispose();
    for (let n = 0; n < N; n++) {
      const row = 4 * H * n;
      for (let j = 0; j < H; j++) {
        const k = H * n + j;
        const t = 2 * tanhC[k]! - 1;
        tanhC[k] = t;
        h[k] = acts[row + 3 * H + j]! * t;
      }
    }
    ctx.acts = acts;
    ctx.tanhC = tanhC;
    ctx.setMaterializeGrads(false);
    ctx.saveForBackward(gates, cx);
    return [hy, cy];
  }

  static override backward(ctx: LstmCellCtx, gh: Tensor | null, gc: Tensor | null): (Tensor | null)[] {
    const [gates, cx] = ctx.savedTensors as [Tensor, Tensor];
    if (gh === null && gc === null) return [null, null];
    const [N, H] = cx.shape as [number, number];
    if (isGradEnabled()) {
      // createGraph: the same gradient from differentiable ops
      const [ai, af, ag, ao] = gates.chunk(4, 1) as [Tensor, Tensor, Tensor, Tensor];
      const [i, f, g, o] = [sigmoid(ai), sigmoid(af), tanh(ag), sigmoid(ao)];
      const t = tanh(f.mul(cx).add(i.mul(g)));
      const oneMinus = (v: Tensor) => v.neg().add(1);
      const fromH = gh ? gh.mul(o).mul(oneMinus(t.mul(t))) : null;
      const dc = fromH && gc ? fromH.add(gc) : (fromH ?? gc!);
      const dGates = cat(
        [
          dc.mul(g).mul(i.mul(oneMinus(i))),
          dc.mul(cx).mul(f.mul(oneMinus(f))),
          dc.mul(i).mul(oneMinus(g.mul(g))),
          gh ? gh.mul(t).mul(o.mul(oneMinus(o))) : zerosLike(o),
        ],
        1,
      );
      return [dGates, dc.mul(f)];
    }
    const { acts, tanhC } = ctx;
    const h = gh ? elementsOf(gh) : null;
    const cg = gc ? elementsOf(gc) : null;
    const c = elementsOf(cx);
    const dGates = Tensor.uninitialized([N, 4 * H], gates.dtype);
    const dCx = Tensor.uninitialized([N, H], cx.dtype);
    const [dg, dcx] = [dGates.storage.data, dCx.storage.data];
    for (let n = 0; n < N; n++) {
      const row = 4 * H * n;
      for (let j = 0; j < H; j++) {
        const k = H * n + j;
        const [i, f, g, o] = [acts[row + j]!, acts[row + H + j]!, acts[row + 2 * H + j]!, acts[row + 3 * H + j]!];
        const t = tanhC[k]!;
        const gradH = h ? h[k]! : 0;
        const dc = (cg ? cg[k]! : 0) + gradH * o * (1 - t * t);
        dg[row + j] = dc * g * i * (1 - i);
        dg[row + H + j] = dc * c[k]! * f * (1 - f);
        dg[row + 2 * H + j] = dc * i * (1 - g * g);
        dg[row + 3 * H + j] = gradH * t * o * (1 - o);
        dcx[k] = dc * f;
      }
    }
    return [dGates, dCx];
  }
}

/** [h', c'] of an LSTM step from its gate pre-activations (Note [Fused LSTM cell]); check canFuseLstmCell first. */
export function fusedLstmCell(gates: Tensor, cx: Tensor): [Tensor, Tensor] {
  return LstmCell.apply<Tensor[]>(gates, cx) as [Tensor, Tensor];
}
