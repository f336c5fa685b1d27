// torch.nn.utils.rnn: PackedSequence and the functions that pack, pad and unpack variable-length batches.
import { type Tensor, cat, full, stack, tensor } from '@wiregrad/autograd';
import { NnError } from '../errors.js';

/**
 * torch.nn.utils.rnn.PackedSequence: the sequences of a batch interleaved time step by time step,
 * longest first. `data` [Σ lengths, *] holds step 0 of every sequence, then step 1 of those longer
 * than 1, ...; `batchSizes[t]` is how many sequences are longer than t. `sortedIndices` orders the
 * original batch by decreasing length (null when it was sorted already); `unsortedIndices` is its
 * inverse. The RNN layers take and return it.
 */
export class PackedSequence {
  constructor(
    readonly data: Tensor,
    readonly batchSizes: readonly number[],
    readonly sortedIndices: Tensor | null = null,
    readonly unsortedIndices: Tensor | null = null,
  ) {}

  /** The same batch with other data (an RNN's output), keeping the sizes and orders. */
  withData(data: Tensor): PackedSequence {
    return new PackedSequence(data, this.batchSizes, this.sortedIndices, this.unsortedIndices);
  }
}

const int32 = (v: number[]) => tensor(v, { dtype: 'int32' });

/** `index`'s inverse permutation (PyTorch's invert_permutation). */
function invertPermutation(index: number[]): number[] {
  const out = new Array<number>(index.length);
  index.forEach((p, i) => (out[p] = i));
  return out;
}

/**
 * Packs a padded batch [T, B, *] ([B, T, *] with batchFirst) of sequences with the given lengths.
 * With enforceSorted (the default) lengths must be decreasing; otherwise the batch is sorted here
 * and the order kept in the result's sortedIndices / unsortedIndices.
 */
export function packPaddedSequence(
  input: Tensor,
  lengths: readonly number[] | Tensor,
  opts: { batchFirst?: boolean; enforceSorted?: boolean } = {},
): PackedSequence {
  const { batchFirst = false, enforceSorted = true } = opts;
  const lens: number[] = Array.isArray(lengths) ? [...lengths] : [...(lengths as Tensor).toTypedArray()].map(Number);
  let x = batchFirst ? input.transpose(0, 1) : input;
  let sorted: number[] | null = null;
  if (enforceSorted) {
    if (lens.some((l, i) => i > 0 && l > lens[i - 1]!))
      throw new NnError(
        'INVALID_ARGUMENT',
        '`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass ' +
          '`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement ' +
          'if you do not need ONNX exportability.',
      );
  } else {
    sorted = lens.map((_, i) => i).sort((a, b) => lens[b]! - lens[a]!);
    x = x.indexSelect(1, int32(sorted));
  }
  const order = sorted ?? lens.map((_, i) => i);
  const sortedLens = order.map((i) => lens[i]!);
  if (sortedLens.at(-1)! <= 0)
    throw new NnError(
      'INVALID_ARGUMENT',
      "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0",
    );
  if (sortedLens[0]! > x.shape[0]!)
    throw new NnError(
      'INVALID_SHAPE',
      `Expected sequence length to be larger than or equal to ${sortedLens[0]}, but got ${x.shape[0]}`,
    );
  const batchSizes: number[] = [];
  for (let t = 0; t < sortedLens[0]!; t++) batchSizes.push(sortedLens.filter((l) => l > t).length);
  const data = cat(
    batchSizes.map((bs, t) => x.select(0, t).narrow(0, 0, bs)),
    0,
  );
  return new PackedSequence(
    data,
    batchSizes,
    sorted ? int32(sorted) : null,
    sorted ? int32(invertPermutation(sorted)) : null,
  );
}

/**
 * Unpacks to [padded [T, B, *] ([B, T, *] with batchFirst) in the original batch order, lengths].
 * totalLength pads to that many steps (at least the longest sequence).
 */
export function padPackedSequence(
  sequence: PackedSequence,
  opts: { batchFirst?: boolean; paddingValue?: number; totalLength?: number | null } = {},
): [Tensor, Tensor] {
  const { batchFirst = false, paddingValue = 0, totalLength = null } = opts;
  const { data, batchSizes } = sequence;
  const maxLen = batchSizes.length;
  if (totalLength !== null && totalLength < maxLen)
    throw new NnError(
      'INVALID_ARGUMENT',
      `Expected total_length to be at least the length of the longest sequence in input, but got total_length=${totalLength} and max sequence length being ${maxLen}`,
    );
  const B = batchSizes[0]!;
  const feat = data.shape.slice(1);
  const pad = (n: number) => full([n, ...feat], paddingValue, { dtype: data.dtype, device: data.device });
  const steps: Tensor[] = [];
  let off = 0;
  for (const bs of batchSizes) {
    const rows = data.narrow(0, off, bs);
    steps.push(bs < B ? cat([rows, pad(B - bs)], 0) : rows);
    off += bs;
  }
  for (let t = maxLen; t < (totalLength ?? maxLen); t++) steps.push(pad(B));
  let out = stack(steps, 0);
  const lengths = Array.from({ length: B }, (_, i) => batchSizes.filter((bs) => bs > i).length);
  let lens = lengths;
  if (sequence.unsortedIndices) {
    const unsorted = sequence.unsortedIndices.tolist() as number[];
    out = out.indexSelect(1, sequence.unsortedIndices);
    lens = unsorted.map((i) => lengths[i]!);
  }
  return [batchFirst ? out.transpose(0, 1) : out, int32(lens)];
}

/** Pads sequences [L_i, *] to the longest: [maxL, B, *], or [B, maxL, *] with batchFirst. */
export function padSequence(
  sequences: readonly Tensor[],
  opts: { batchFirst?: boolean; paddingValue?: number } = {},
): Tensor {
  const { batchFirst = false, paddingValue = 0 } = opts;
  if (sequences.length === 0) throw new NnError('INVALID_ARGUMENT', 'received an empty list of sequences');
  const maxLen = Math.max(...sequences.map((s) => s.shape[0]!));
  const padded = sequences.map((s) =>
    s.shape[0]! < maxLen
      ? cat(
          [s, full([maxLen - s.shape[0]!, ...s.shape.slice(1)], paddingValue, { dtype: s.dtype, device: s.device })],
          0,
        )
      : s,
  );
  return stack(padded, batchFirst ? 0 : 1);
}

/** Packs a list of sequences [L_i, *] (padSequence, then packPaddedSequence with their lengths). */
export function packSequence(sequences: readonly Tensor[], opts: { enforceSorted?: boolean } = {}): PackedSequence {
  return packPaddedSequence(
    padSequence(sequences),
    sequences.map((s) => s.shape[0]!),
    { enforceSorted: opts.enforceSorted ?? true },
  );
}
