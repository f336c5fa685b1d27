import { Tensor, noGrad } from '@wiregrad/autograd';
import { NnError, shapeText } from './errors.js';

/** PyTorch's state dict: parameter and persistent buffer tensors by dotted key, in traversal order. */
export type StateDict = Record<string, Tensor>;

export interface LoadStateDictOptions {
  /** whether missing and unexpected keys are errors (default true) */
  strict?: boolean;
}

/** PyTorch's _IncompatibleKeys. */
export interface IncompatibleKeys {
  missingKeys: string[];
  unexpectedKeys: string[];
}

/**
 * What stateDict and loadStateDict read of a module: Module has these methods, and this file
 * names no Module (module.ts imports it, not the other way round).
 */
export interface StateDictModule {
  /** the module's own parameters and persistent buffers, by local name */
  localState(): [string, Tensor][];
  namedChildren(): [string, StateDictModule][];
  /** values for keys a state dict of an older version may lack */
  legacyStateDefaults(): Record<string, Tensor>;
}

/** See Module.stateDict: each module's local state under its prefix, then its children's (no dedupe: shared tensors keep every key). */
export function stateDict(module: StateDictModule, opts: { prefix?: string; keepVars?: boolean } = {}): StateDict {
  const out: StateDict = {};
  const visit = (m: StateDictModule, prefix: string) => {
    for (const [name, t] of m.localState()) out[prefix + name] = opts.keepVars ? t : t.detach();
    for (const [name, child] of m.namedChildren()) visit(child, `${prefix}${name}.`);
  };
  visit(module, opts.prefix ?? '');
  return out;
}

/**
 * Note [Loading a state dict]
 * PyTorch 1.13's load_state_dict, rule for rule: every module (shared ones once per name) looks
 * up `prefix + name` for each parameter and persistent buffer; a present value is checked to be
 * a tensor of the same shape (a 1-element 1-D value fills a 0-dim tensor, PyTorch's 0.3
 * compatibility) and copied in place under noGrad (casting to the module's dtype and device);
 * an absent one is a missing key. A key under a module's prefix whose next component is neither
 * a child nor a local name is unexpected. Missing/unexpected keys raise only when `strict`;
 * shape and type errors raise always, all in one message with PyTorch's text. A key a module
 * gives a legacy default for (Module.legacyStateDefaults) is loaded from that default when absent,
 * as PyTorch 1.13 loads a BatchNorm state dict without num_batches_tracked (the counter becomes 0).
 */
export function loadStateDict(
  module: StateDictModule,
  sd: StateDict,
  opts: LoadStateDictOptions = {},
): IncompatibleKeys {
  if (typeof sd !== 'object' || sd === null || Array.isArray(sd) || sd instanceof Map) {
    throw new NnError('INVALID_ARGUMENT', `Expected state_dict to be dict-like, got ${describe(sd)}.`);
  }
  const strict = opts.strict ?? true;
  const missingKeys: string[] = [];
  const unexpectedKeys: string[] = [];
  const errors: string[] = [];

  const load = (m: StateDictModule, local: string[], prefix: string) => {
    const localState = new Map(m.localState());
    for (const [name, param] of localState) {
      const key = prefix + name;
      const legacy = Object.hasOwn(sd, key) ? undefined : m.legacyStateDefaults()[name];
      if (legacy) sd = { ...sd, [key]: legacy };
      if (!Object.hasOwn(sd, key)) {
        missingKeys.push(key);
        continue;
      }
      let input: unknown = sd[key];
      if (!(input instanceof Tensor)) {
        errors.push(
          `While copying the parameter named "${key}", expected torch.Tensor or Tensor-like object from checkpoint but received ${describe(input)}`,
        );
        continue;
      }
      if (param.ndim === 0 && input.ndim === 1) input = input.select(0, 0);
      const value = input as Tensor;
      if (value.shape.length !== param.shape.length || value.shape.some((s, i) => s !== param.shape[i])) {
        errors.push(
          `size mismatch for ${key}: copying a param with shape ${shapeText(value.shape)} from checkpoint, the shape in current model is ${shapeText(param.shape)}.`,
        );
        continue;
      }
      try {
        noGrad(() => param.copy_(value));
      } catch (e) {
        errors.push(
          `While copying the parameter named "${key}", whose dimensions in the model are ${shapeText(param.shape)} and whose dimensions in the checkpoint are ${shapeText(value.shape)}, an exception occurred : ${(e as Error).message}.`,
        );
      }
    }
    const children = m.namedChildren();
    const childNames = new Set(children.map(([name]) => name.split('.', 1)[0]!));
    for (const key of local) {
      const inputName = key.slice(prefix.length).split('.', 1)[0]!;
      if (!childNames.has(inputName) && !localState.has(inputName)) unexpectedKeys.push(key);
    }
    for (const [name, child] of children) {
      const childPrefix = `${prefix}${name}.`;
      load(
        child,
        local.filter((k) => k.startsWith(childPrefix)),
        childPrefix,
      );
    }
  };
  load(module, Object.keys(sd), '');

  if (strict) {
    if (unexpectedKeys.length > 0)
      errors.unshift(`Unexpected key(s) in state_dict: ${unexpectedKeys.map((k) => `"${k}"`).join(', ')}. `);
    if (missingKeys.length > 0)
      errors.unshift(`Missing key(s) in state_dict: ${missingKeys.map((k) => `"${k}"`).join(', ')}. `);
  }
  if (errors.length > 0)
    throw new NnError(
      'STATE_DICT',
      `Error(s) in loading state_dict for ${module.constructor.name}:\n\t${errors.join('\n\t')}`,
    );
  return { missingKeys, unexpectedKeys };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}
