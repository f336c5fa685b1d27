import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Node, type Tensor, checkpoint, detectAnomaly, grad, setDetectAnomaly, tensor } from './index.js';

const leaf = (v: number[]) => tensor(v, { dtype: 'float64', requiresGrad: true });

/** The messages of the UserWarnings emitted while `fn` runs (fn's error, if any, is returned too). */
function warningsOf(fn: () => void): { warnings: string[]; error: unknown } {
  const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
  let error: unknown = null;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  const warnings = warn.mock.calls.map(([message, type]) => {
    expect(type).toBe('UserWarning');
    return String(message);
  });
  warn.mockRestore();
  return { warnings, error };
}

const ENABLED =
  'Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.';

/** PyTorch's warning for a failed node (or an ancestor) made while anomaly mode was off. */
const noForwardInformation = (node: string) =>
  `Error detected in ${node}. No forward pass information available. Enable detect anomaly during forward pass for more information.`;

/** Makes the node behind `y` throw when a backward pass reaches it; returns its name. */
function failsInBackward(y: Tensor): string {
  const node = y.gradFn as Node;
  node.registerPrehook(() => {
    throw new Error('node failed');
  });
  return node.name();
}

describe('anomaly mode (PyTorch detect_anomaly)', () => {
  afterEach(() => setDetectAnomaly(false));

  it('detectAnomaly warns on entry that it is slow', () => {
    const { warnings } = warningsOf(() => detectAnomaly(() => leaf([1]).exp().sum().backward()));
    expect(warnings).toEqual([ENABLED]);
  });

  it('a failing node is reported with the forward call that created it; the error itself is unchanged', () => {
    const x = leaf([-1]);
    const { warnings, error } = warningsOf(() => detectAnomaly(() => x.pow(0.5).sum().backward()));
    expect((error as Error).message).toBe("Function 'PowBackward0' returned nan values in its 0th output.");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toBe(ENABLED);
    expect(warnings[1]).toMatch(
      /^Error detected in PowBackward0\. Traceback of forward call that caused the error:\n.*anomalyMode\.test\.ts/s,
    );
  });

  it('reports the failure of any node (a throwing pre-hook) while anomaly mode is on; one made before it has no trace', () => {
    const x = leaf([1]);
    const untraced = x.exp();
    setDetectAnomaly(true);
    const traced = x.exp();
    for (const y of [untraced, traced]) failsInBackward(y);
    const quiet = warningsOf(() => {
      setDetectAnomaly(false);
      untraced.sum().backward();
    });
    expect((quiet.error as Error).message).toBe('node failed');
    expect(quiet.warnings).toEqual([]);
    setDetectAnomaly(true);
    const noTrace = warningsOf(() => untraced.sum().backward());
    expect((noTrace.error as Error).message).toBe('node failed');
    expect(noTrace.warnings).toEqual([noForwardInformation('ExpBackward0')]);
    const loud = warningsOf(() => traced.sum().backward());
    expect((loud.error as Error).message).toBe('node failed');
    expect(loud.warnings).toHaveLength(1);
    expect(loud.warnings[0]).toMatch(
      /^Error detected in ExpBackward0\. Traceback of forward call that caused the error:\n/,
    );
  });

  it('double backward: a node made by the first backward names the node that induced it, with its forward trace', () => {
    const x = leaf([-1]);
    let made = '';
    const { warnings, error } = warningsOf(() =>
      detectAnomaly(() => {
        const [g] = grad(x.pow(3).sum(), x, { createGraph: true });
        made = failsInBackward(g as Tensor);
        (g as Tensor).sum().backward();
      }),
    );
    expect((error as Error).message).toBe('node failed');
    expect(warnings).toEqual([
      ENABLED,
      expect.stringMatching(
        new RegExp(`^Error detected in ${made}\\. Traceback of forward call that caused the error:\\n`),
      ),
      expect.stringMatching(
        /^\n\nPrevious calculation was induced by PowBackward0\. Traceback of forward call that induced the previous calculation:\n.*anomalyMode\.test\.ts/s,
      ),
    ]);
    expect(warnings.join('\n')).not.toContain('No forward pass information');
  });

  it('double backward of a forward run outside anomaly mode: the inducing node has no forward pass information', () => {
    const x = leaf([-1]);
    const y = x.pow(3);
    let made = '';
    const { warnings, error } = warningsOf(() =>
      detectAnomaly(() => {
        const [g] = grad(y.sum(), x, { createGraph: true });
        made = failsInBackward(g as Tensor);
        (g as Tensor).sum().backward();
      }),
    );
    expect((error as Error).message).toBe('node failed');
    expect(warnings).toEqual([
      ENABLED,
      expect.stringMatching(
        new RegExp(`^Error detected in ${made}\\. Traceback of forward call that caused the error:\\n`),
      ),
      noForwardInformation('PowBackward0'),
    ]);
  });

  it('a node made during backward (checkpoint recomputation) names the node that induced it', () => {
    const x = leaf([-1]);
    const { warnings, error } = warningsOf(() =>
      detectAnomaly(() =>
        checkpoint((a) => a.pow(0.5), x)
          .sum()
          .backward(),
      ),
    );
    expect((error as Error).message).toBe("Function 'PowBackward0' returned nan values in its 0th output.");
    const checkpointNode = warnings.at(-1)!.match(/^Error detected in (\w+)\./)?.[1];
    expect(checkpointNode).toMatch(/Checkpoint/);
    expect(warnings.slice(1)).toEqual([
      expect.stringMatching(/^Error detected in PowBackward0\. Traceback of forward call that caused the error:\n/),
      expect.stringMatching(
        new RegExp(
          `^\\n\\nPrevious calculation was induced by ${checkpointNode}\\. Traceback of forward call that induced the previous calculation:\\n.*anomalyMode\\.test\\.ts`,
          's',
        ),
      ),
      expect.stringMatching(new RegExp(`^Error detected in ${checkpointNode}\\.`)),
    ]);
  });

  it('checkNan=false skips the NaN check', () => {
    const x = leaf([-1]);
    const { warnings, error } = warningsOf(() => detectAnomaly(() => x.sqrt().sum().backward(), false));
    expect(error).toBeNull();
    expect(warnings).toEqual([ENABLED]);
  });
});
