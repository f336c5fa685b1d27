import {
  DTYPES,
  type DType,
  type DeviceLike,
  type Tensor,
  type ToTarget,
  Device,
  isFloatingPoint,
  noGrad,
} from '@wiregrad/autograd';
import { NnError } from './errors.js';
import { Parameter } from './parameter.js';
import { zeroGradOf } from './utils/zeroGrad.js';
import {
  type IncompatibleKeys,
  type LoadStateDictOptions,
  type StateDict,
  loadStateDict,
  stateDict,
} from './stateDict.js';

/** Any module, whatever its forward takes and returns (method parameters are bivariant). */
export type AnyModule = Module<never[], unknown>;

interface Buffers {
  readonly tensors: Map<string, Tensor | null>;
  readonly nonPersistent: Set<string>;
}
const buffersOf = new WeakMap<object, Buffers>();

/** A leaf that requires grad assigned to a property: a parameter, as before `Parameter` existed. */
const isLegacyParameter = (v: object): v is Tensor =>
  'storage' in v && 'requiresGrad' in v && (v as Tensor).requiresGrad && (v as Tensor).isLeaf;

/**
 * Note [Module members]
 * PyTorch's nn.Module finds parameters and submodules through __setattr__; here they are the
 * module's own enumerable properties, in definition order (class fields in declaration order):
 * - a `Parameter` (or, for modules written before it, any leaf tensor that requires grad) is a
 *   parameter named after its property; `null` (an absent bias) is skipped;
 * - a `Module` is a child; an array of modules gives children `key.0`, `key.1`, ...;
 * - buffers have PyTorch's snake_case names (`running_mean`) and live in `registerBuffer`'s
 *   registry; layers expose them as camelCase getters (`runningMean`);
 * - any other property is plain state, as in PyTorch.
 * Traversals are pre-order: a module's own parameters, then its buffers, then each child's, with
 * keys joined by '.'; shared parameters and modules are visited once (stateDict keeps every name).
 */
export abstract class Module<In extends unknown[] = [Tensor], Out = Tensor> {
  training = true;

  abstract forward(...inputs: In): Out;

  /** `forward(...inputs)`: PyTorch's `module(x)`. */
  call(...inputs: In): Out {
    return this.forward(...inputs);
  }

  /** Adds a buffer named `name` (PyTorch's snake_case key); non-persistent ones stay out of stateDict. */
  registerBuffer(name: string, tensor: Tensor | null, opts: { persistent?: boolean } = {}): void {
    if (name.includes('.')) throw new NnError('KEY_ERROR', `buffer name can't contain "."`);
    if (name === '') throw new NnError('KEY_ERROR', `buffer name can't be empty string ""`);
    let b = buffersOf.get(this);
    if (!b) buffersOf.set(this, (b = { tensors: new Map(), nonPersistent: new Set() }));
    b.tensors.set(name, tensor);
    if (opts.persistent === false) b.nonPersistent.add(name);
    else b.nonPersistent.delete(name);
  }

  /** The buffer registered as `name` (null when registered as null). */
  getBuffer(name: string): Tensor | null {
    const b = buffersOf.get(this);
    if (!b?.tensors.has(name)) throw new NnError('KEY_ERROR', `${this.constructor.name} has no buffer named '${name}'`);
    return b.tensors.get(name)!;
  }

  /** Replaces the tensor of buffer `name` (keeping its persistence). */
  setBuffer(name: string, tensor: Tensor | null): void {
    this.getBuffer(name);
    buffersOf.get(this)!.tensors.set(name, tensor);
  }

  /** Direct submodules with their names (PyTorch's named_children). See Note [Module members]. */
  namedChildren(): [string, AnyModule][] {
    const out: [string, AnyModule][] = [];
    for (const [key, value] of Object.entries(this)) {
      if (value instanceof Module) out.push([key, value]);
      else if (Array.isArray(value)) value.forEach((m, i) => m instanceof Module && out.push([`${key}.${i}`, m]));
    }
    return out;
  }

  children(): AnyModule[] {
    return this.namedChildren().map(([, m]) => m);
  }

  /** This module and every submodule, pre-order, each once (PyTorch's named_modules). */
  namedModules(prefix = ''): [string, AnyModule][] {
    const out: [string, AnyModule][] = [];
    const seen = new Set<AnyModule>();
    const visit = (m: AnyModule, name: string) => {
      if (seen.has(m)) return;
      seen.add(m);
      out.push([name, m]);
      for (const [key, child] of m.namedChildren()) visit(child, name ? `${name}.${key}` : key);
    };
    visit(this as AnyModule, prefix);
    return out;
  }

  modules(): AnyModule[] {
    return this.namedModules().map(([, m]) => m);
  }

  /** This module's own parameters (not its children's), in definition order. */
  private ownParameters(): [string, Tensor][] {
    const out: [string, Tensor][] = [];
    for (const [key, value] of Object.entries(this)) {
      if (
        value instanceof Parameter ||
        (typeof value === 'object' && value !== null && !(value instanceof Module) && isLegacyParameter(value))
      )
        out.push([key, value as Tensor]);
    }
    return out;
  }

  private ownBuffers(persistentOnly: boolean): [string, Tensor][] {
    const b = buffersOf.get(this);
    if (!b) return [];
    return [...b.tensors].filter(
      (e): e is [string, Tensor] => e[1] !== null && !(persistentOnly && b.nonPersistent.has(e[0])),
    );
  }

  /** Named parameters: own first, then each child's, each tensor once (PyTorch's named_parameters()). */
  namedParameters(opts: { prefix?: string; recurse?: boolean } = {}): [string, Tensor][] {
    return this.namedMembers((m) => m.ownParameters(), opts);
  }

  parameters(recurse = true): Tensor[] {
    return this.namedParameters({ recurse }).map(([, p]) => p);
  }

  namedBuffers(opts: { prefix?: string; recurse?: boolean } = {}): [string, Tensor][] {
    return this.namedMembers((m) => m.ownBuffers(false), opts);
  }

  buffers(recurse = true): Tensor[] {
    return this.namedBuffers({ recurse }).map(([, b]) => b);
  }

  private namedMembers(
    own: (m: Module<never[], unknown>) => [string, Tensor][],
    opts: { prefix?: string; recurse?: boolean },
  ): [string, Tensor][] {
    const { prefix = '', recurse = true } = opts;
    const mods: [string, AnyModule][] = recurse ? this.namedModules(prefix) : [[prefix, this as AnyModule]];
    const seen = new Set<Tensor>();
    const out: [string, Tensor][] = [];
    for (const [modName, m] of mods) {
      for (const [key, t] of own(m)) {
        if (seen.has(t)) continue;
        seen.add(t);
        out.push([modName ? `${modName}.${key}` : key, t]);
      }
    }
    return out;
  }

  /**
   * The tensors of this module's own entry in a state dict: parameters, then persistent
   * buffers (PyTorch's _save_to_state_dict / _load_from_state_dict). See stateDict.ts.
   */
  localState(): [string, Tensor][] {
    return [...this.ownParameters(), ...this.ownBuffers(true)];
  }

  /**
   * Values for local state keys an older checkpoint may lack, loaded in their place (PyTorch's
   * version upgrades in _load_from_state_dict; BatchNorm's `num_batches_tracked`). None by default.
   */
  legacyStateDefaults(): Record<string, Tensor> {
    return {};
  }

  /** Parameters and persistent buffers under PyTorch's keys ('0.weight', 'bn.running_mean'), detached (sharing storage). */
  stateDict(opts: { prefix?: string; keepVars?: boolean } = {}): StateDict {
    return stateDict(this as AnyModule, opts);
  }

  /** Copies `sd` into this module's tensors in place; PyTorch's errors for missing, unexpected and mis-shaped keys. */
  loadStateDict(sd: StateDict, opts: LoadStateDictOptions = {}): IncompatibleKeys {
    return loadStateDict(this as AnyModule, sd, opts);
  }

  /** Sets training mode here and in every submodule; returns this. */
  train(mode = true): this {
    for (const m of this.modules()) m.training = mode;
    return this;
  }

  eval(): this {
    return this.train(false);
  }

  /** Sets `requiresGrad` of every parameter (freezing with false); returns this. */
  requiresGrad_(requiresGrad = true): this {
    for (const p of this.parameters()) p.requiresGrad = requiresGrad;
    return this;
  }

  /** Clears every parameter's gradient: to null by default, or to zeros in place with `setToNone: false`. */
  zeroGrad(opts: { setToNone?: boolean } = {}): void {
    for (const p of this.parameters()) zeroGradOf(p, opts.setToNone !== false);
  }

  /** Calls `fn` on every submodule (children first) and then on this one; returns this. */
  apply(fn: (m: AnyModule) => void): this {
    for (const child of this.children()) child.apply(fn);
    fn(this as AnyModule);
    return this;
  }

  /**
   * Moves parameters (with their gradients) and buffers to a device and/or casts them to a
   * dtype (floating point ones only, as in PyTorch); returns this. Moved parameters are new
   * `Parameter`s: build optimizers after `to()`, as PyTorch advises.
   */
  to(target: ToTarget): this {
    const { device, dtype } = splitTarget(target);
    const convert = (t: Tensor): Tensor =>
      t.to({
        ...(device !== undefined && { device }),
        ...(dtype !== undefined && isFloatingPoint(t.dtype) && { dtype }),
      });
    noGrad(() => {
      for (const m of this.modules()) {
        for (const [key, p] of m.ownParameters()) {
          const moved = convert(p);
          if (moved === p) continue;
          const np = new Parameter(moved, p.requiresGrad);
          if (p.grad) np.grad = convert(p.grad);
          (m as unknown as Record<string, unknown>)[key] = np;
        }
        const b = buffersOf.get(m);
        if (b) for (const [name, t] of b.tensors) if (t) b.tensors.set(name, convert(t));
      }
    });
    return this;
  }

  /** Extra text inside this module's printout (PyTorch's extra_repr): `in_features=4, out_features=3, bias=True`. */
  extraRepr(): string {
    return '';
  }

  /** PyTorch's printout: `Sequential(\n  (0): Linear(in_features=4, ...)\n)`. */
  toString(): string {
    const children = this.namedChildren().map(([key, m]) => `(${key}): ${m.toString().replace(/\n/g, '\n  ')}`);
    const lines = [...(this.extraRepr() ? this.extraRepr().split('\n') : []), ...children];
    if (children.length === 0) return `${this.constructor.name}(${lines.join('\n  ')})`;
    return `${this.constructor.name}(\n  ${lines.join('\n  ')}\n)`;
  }
}

function splitTarget(target: ToTarget): { device?: DeviceLike; dtype?: DType } {
  if (target instanceof Device) return { device: target };
  if (typeof target === 'string')
    return (DTYPES as readonly string[]).includes(target)
      ? { dtype: target as DType }
      : { device: target as DeviceLike };
  return target;
}
