// The playground's settings: what each control holds, how a control's text is checked, and how the
// settings travel in the page's URL (a shared link opens the same experiment). Pure functions, so
// test/settings.test.ts checks them in Node; the page (controls.ts) wires them to the form.

export const DATASETS = ['circles', 'xor', 'spirals', 'gaussians'] as const;
export const ACTIVATIONS = ['tanh', 'relu', 'sigmoid', 'linear'] as const;
export const DEVICES = ['cpu', 'gpu', 'both'] as const;

export type Dataset = (typeof DATASETS)[number];
export type Activation = (typeof ACTIVATIONS)[number];
export type DeviceChoice = (typeof DEVICES)[number];

export interface Settings {
  dataset: Dataset;
  /** the spread added to every point, 0 to 0.5 of the plane's half-width */
  noise: number;
  /** the share of the points trained on, in percent (the rest is the test set) */
  trainPercent: number;
  /** neurons of each hidden layer; [] is logistic regression */
  hidden: number[];
  activation: Activation;
  learningRate: number;
  batchSize: number;
  /** the L2 penalty on the weights (Adam's weightDecay, added to each gradient as PyTorch does) */
  l2: number;
  device: DeviceChoice;
  /** seeds the points, the split, the batches and the initial weights */
  seed: number;
}

export const DEFAULTS: Settings = {
  dataset: 'circles',
  noise: 0.1,
  trainPercent: 50,
  hidden: [8, 8],
  activation: 'tanh',
  learningRate: 0.03,
  batchSize: 10,
  l2: 0,
  device: 'cpu',
  seed: 1,
};

/** how many points each dataset has (TensorFlow Playground's number) */
export const POINTS = 400;
export const MAX_LAYERS = 6;
export const MAX_NEURONS = 32;

export type Field = keyof Settings;
export const FIELDS = Object.keys(DEFAULTS) as Field[];

/** A control's text, read: the value, or a sentence that says what the control accepts. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const fail = (error: string): Parsed<never> => ({ ok: false, error });

function oneOf<T extends string>(choices: readonly T[]) {
  return (text: string): Parsed<T> =>
    (choices as readonly string[]).includes(text)
      ? { ok: true, value: text as T }
      : fail(`one of ${choices.join(', ')} (got "${text}")`);
}

/** A decimal number in [min, max] (integers only when `integer`); "abc", "", "1e" and "-5" for a count are errors. */
function numberIn(min: number, max: number, integer = false) {
  return (text: string): Parsed<number> => {
    const trimmed = text.trim();
    const kind = integer ? 'a whole number' : 'a number';
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed))
      return fail(`${kind} from ${min} to ${max} (got "${text}")`);
    const value = Number(trimmed);
    if (integer && !Number.isInteger(value)) return fail(`${kind} from ${min} to ${max} (got "${text}")`);
    if (value < min || value > max) return fail(`${kind} from ${min} to ${max} (got ${value})`);
    return { ok: true, value };
  };
}

function hiddenLayers(text: string): Parsed<number[]> {
  const parts = text.trim() === '' ? [] : text.split(',').map((p) => p.trim());
  if (parts.length > MAX_LAYERS) return fail(`at most ${MAX_LAYERS} hidden layers (got ${parts.length})`);
  const sizes: number[] = [];
  for (const [i, part] of parts.entries()) {
    const n = numberIn(1, MAX_NEURONS, true)(part);
    if (!n.ok) return fail(`hidden layer ${i + 1}: ${n.error}`);
    sizes.push(n.value);
  }
  return { ok: true, value: sizes };
}

/** How each field's control (or URL parameter) text is read. */
export const PARSERS: { [F in Field]: (text: string) => Parsed<Settings[F]> } = {
  dataset: oneOf(DATASETS),
  noise: numberIn(0, 0.5),
  trainPercent: numberIn(10, 90, true),
  hidden: hiddenLayers,
  activation: oneOf(ACTIVATIONS),
  learningRate: numberIn(0.00001, 10),
  batchSize: numberIn(1, POINTS, true),
  l2: numberIn(0, 1),
  device: oneOf(DEVICES),
  seed: numberIn(0, 2 ** 31 - 1, true),
};

/** A field as its control and the URL write it. */
export function format<F extends Field>(field: F, value: Settings[F]): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** The URL's query for these settings: every field, in FIELDS' order (`?dataset=xor&noise=0.1&...`). */
export function toQuery(settings: Settings): string {
  return `?${new URLSearchParams(FIELDS.map((f) => [f, format(f, settings[f])])).toString()}`;
}

/**
 * The settings a URL's query holds: fields it does not name keep their defaults, and a field whose
 * value is not valid keeps its default too and is reported (the page shows it beside the control).
 */
export function fromQuery(query: string): { settings: Settings; errors: Partial<Record<Field, string>> } {
  const params = new URLSearchParams(query);
  const settings: Settings = { ...DEFAULTS, hidden: [...DEFAULTS.hidden] };
  const errors: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const text = params.get(field);
    if (text === null) continue;
    const parsed = PARSERS[field](text);
    if (parsed.ok) (settings as unknown as Record<Field, unknown>)[field] = parsed.value;
    else errors[field] = parsed.error;
  }
  return { settings, errors };
}
