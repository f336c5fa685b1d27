import { Tensor, enableGrad, isFloatingPoint, keep, noGrad, typeName } from '@wiregrad/autograd';
import { NnError } from '../errors.js';
import { zeroGradOf } from '../utils/zeroGrad.js';
import { checkOptionTypes, kindOf } from './validate.js';

/** One parameter group: its tensors and the optimizer's options for them (camelCase PyTorch names). */
export interface ParamGroup {
  params: Tensor[];
  lr: number;
}

/** What optimizers take: tensors, or groups of tensors with per-group options. */
export type Params<O = object> = Iterable<Tensor> | Iterable<{ params: Iterable<Tensor> } & Partial<O>>;

/** Per-parameter state under PyTorch's keys (`step`, `exp_avg`, `momentum_buffer`, ...; LBFGS's `old_dirs` are lists). */
export type ParamState = Record<string, Tensor | number | (Tensor | number | null)[]>;

/** PyTorch's optimizer state dict: state by parameter index (numbered across groups in order), groups with indices for params. */
export interface OptimizerStateDict {
  state: Record<number, ParamState>;
  paramGroups: (Record<string, unknown> & { params: number[] })[];
}

/**
 * Note [Optimizer]
 * torch.optim.Optimizer: `paramGroups` hold the tensors and options (a group's own options win
 * over the defaults), `state` maps each parameter to its PyTorch-named state, created lazily on
 * its first step. `step()` runs under noGrad and updates parameters in place, with PyTorch
 * 1.13's single-tensor formulas operation for operation (so float64 runs agree with PyTorch to
 * rounding; SGD and Adam run them in one pass per parameter, Note [Fused optimizer steps]);
 * parameters without a gradient are skipped. `stateDict()` is a snapshot (tensors
 * cloned); `loadStateDict()` checks group counts and sizes with PyTorch's messages and casts
 * state tensors to each parameter's dtype and device.
 */
export abstract class Optimizer<G extends ParamGroup = ParamGroup> {
  readonly paramGroups: G[] = [];
  readonly state = new Map<Tensor, ParamState>();
  readonly defaults: Omit<G, 'params'>;

  constructor(params: Params<Omit<G, 'params'>>, defaults: Omit<G, 'params'>) {
    this.defaults = defaults;
    if (params === null || typeof params !== 'object' || !(Symbol.iterator in params) || params instanceof Tensor) {
      const got = params instanceof Tensor ? 'Tensor' : params === null ? 'null' : typeof params;
      throw new NnError(
        'INVALID_ARGUMENT',
        `params argument given to the optimizer should be an iterable of Tensors or dicts, but got ${got}`,
      );
    }
    const list = [...params];
    if (list.length === 0) throw new NnError('INVALID_ARGUMENT', 'optimizer got an empty parameter list');
    const groups =
      list[0] instanceof Tensor ? [{ params: list as Tensor[] }] : (list as { params: Iterable<Tensor> }[]);
    for (const g of groups) this.addParamGroup(g as { params: Iterable<Tensor> } & Partial<Omit<G, 'params'>>);
  }

  /** Adds a group; options it leaves out come from the defaults (PyTorch's add_param_group). */
  addParamGroup(group: { params: Iterable<Tensor> | Tensor } & Partial<Omit<G, 'params'>>): void {
    if (typeof group !== 'object' || group === null)
      throw new NnError('INVALID_ARGUMENT', 'param group must be a dict');
    const given: unknown = group.params;
    if (!(given instanceof Tensor) && (typeof given !== 'object' || given === null || !(Symbol.iterator in given)))
      throw new NnError(
        'INVALID_ARGUMENT',
        `a param group's params must be a Tensor or an iterable of Tensors, not ${typeName(given)}`,
      );
    const kinds = Object.fromEntries(
      Object.entries(this.defaults).flatMap(([key, v]) => {
        const kind = kindOf(v);
        return kind === null ? [] : [[key, kind]];
      }),
    );
    checkOptionTypes(`${this.constructor.name}.addParamGroup`, group, kinds);
    const params = group.params instanceof Tensor ? [group.params] : [...group.params];
    for (const p of params) {
      if (!(p instanceof Tensor))
        throw new NnError(
          'INVALID_ARGUMENT',
          `optimizer can only optimize Tensors, but one of the params is ${p === null ? 'null' : typeof p}`,
        );
      if (!p.isLeaf) throw new NnError('INVALID_ARGUMENT', "can't optimize a non-leaf Tensor");
    }
    const full = { ...this.defaults, ...group, params } as unknown as G;
    for (const [key, value] of Object.entries(full)) {
      if (value === undefined)
        throw new NnError(
          'INVALID_ARGUMENT',
          `parameter group didn't specify a value of required optimization parameter ${key}`,
        );
    }
    const seen = new Set(this.paramGroups.flatMap((g) => g.params));
    if (params.some((p) => seen.has(p)) || new Set(params).size !== params.length) {
      throw new NnError('INVALID_ARGUMENT', 'some parameters appear in more than one parameter group');
    }
    this.paramGroups.push(full);
  }

  /** Clears the gradients: to null by default (PyTorch 2's default), or to zeros in place with `setToNone: false`. */
  zeroGrad(opts: { setToNone?: boolean } = {}): void {
    for (const g of this.paramGroups) {
      for (const p of g.params) zeroGradOf(p, opts.setToNone !== false);
    }
  }

  /** One update of every parameter with a gradient; `closure` re-evaluates the loss first (with grad enabled) and its value is returned. */
  step(closure?: () => Tensor | number): Tensor | number | undefined {
    const loss = closure ? enableGrad(closure) : undefined;
    noGrad(() => {
      for (const g of this.paramGroups) this.stepGroup(g);
    });
    return loss;
  }

  /** Updates the parameters of `group` in place (called under noGrad). */
  protected abstract stepGroup(group: G): void;

  /**
   * The state of `p`, made by `init` on first use.
   *
   * Note [Optimizer state outlives tidy]
   * State made inside a tidy() scope (a training step) is kept, so the next step still has it.
   */
  protected stateOf(p: Tensor, init: () => ParamState): ParamState {
    let s = this.state.get(p);
    if (!s) this.state.set(p, (s = keepState(init())));
    return s;
  }

  stateDict(): OptimizerStateDict {
    const index = new Map<Tensor, number>();
    const paramGroups = this.paramGroups.map((g) => {
      const { params, ...options } = g;
      return {
        ...structuredClone(options),
        params: params.map((p) => index.get(p) ?? index.set(p, index.size).size - 1),
      };
    });
    const state: Record<number, ParamState> = {};
    for (const [p, s] of this.state) {
      const i = index.get(p);
      if (i !== undefined)
        state[i] = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, mapTensors(v, (t) => t.clone())]));
    }
    return { state, paramGroups };
  }

  loadStateDict(sd: OptimizerStateDict): void {
    if (typeof sd !== 'object' || sd === null || !Array.isArray(sd.paramGroups) || typeof sd.state !== 'object') {
      throw new NnError('INVALID_ARGUMENT', 'loadStateDict expects { state, paramGroups } as stateDict() returns');
    }
    if (sd.paramGroups.length !== this.paramGroups.length)
      throw new NnError('STATE_DICT', 'loaded state dict has a different number of parameter groups');
    if (sd.paramGroups.some((g, i) => g.params.length !== this.paramGroups[i]!.params.length)) {
      throw new NnError(
        'STATE_DICT',
        "loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
      );
    }
    this.state.clear();
    sd.paramGroups.forEach((saved, gi) => {
      const group = this.paramGroups[gi]!;
      saved.params.forEach((id, j) => {
        const p = group.params[j]!;
        const s = sd.state[id];
        if (s)
          this.state.set(
            p,
            Object.fromEntries(Object.entries(s).map(([k, v]) => [k, mapTensors(v, (t) => castLike(t, p, k))])),
          );
      });
      const { params: _ids, ...options } = saved;
      Object.assign(group, structuredClone(options));
    });
  }
}

/** A state tensor on p's device, in p's dtype when floating (PyTorch's _cast; `step` keeps its dtype). */
function castLike(v: Tensor, p: Tensor, key: string): Tensor {
  const dtype = key !== 'step' && isFloatingPoint(p.dtype) && isFloatingPoint(v.dtype) ? p.dtype : v.dtype;
  const out = v.to({ dtype, device: p.device });
  return keep(out === v ? v.clone() : out);
}

/** Throws PyTorch's "Invalid <name> value: v" unless `ok`. */
export function check(ok: boolean, message: string): void {
  if (!ok) throw new NnError('INVALID_ARGUMENT', message);
}

/** Keeps every tensor of a parameter's state from the tidy() scope it was made in. */
function keepState<S extends ParamState>(s: S): S {
  for (const v of Object.values(s)) mapTensors(v, keep);
  return s;
}

/** A state value with `f` applied to its tensors (a list's elements too). */
function mapTensors<V extends ParamState[string]>(v: V, f: (t: Tensor) => Tensor): V {
  if (v instanceof Tensor) return f(v) as V;
  if (Array.isArray(v)) return v.map((e) => (e instanceof Tensor ? f(e) : e)) as V;
  return v;
}
