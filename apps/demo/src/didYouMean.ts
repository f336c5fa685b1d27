/** The edit distance between two strings (insertions, deletions, substitutions and adjacent swaps). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The option a mistyped `--name` most likely meant: one that starts with it (`--batch` for
 * `--batch-size`), else the nearest within a third of its length in edits (`--epoch`, `--epcohs`
 * for `--epochs`); null when none is close.
 */
export function closestOption(typed: string, options: readonly string[]): string | null {
  const name = typed.replace(/^-+/, '').split('=')[0]!.toLowerCase();
  if (name.length < 2) return null;
  const prefixed = options.filter((o) => o.startsWith(name));
  if (prefixed.length === 1) return prefixed[0]!;
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const o of options) {
    const d = distance(name, o);
    if (d < bestDistance) [best, bestDistance] = [o, d];
  }
  return best;
}
