/**
 * PyTorch's AnomalyMode: when on, every node created records where in user code it was made
 * (its error then names it), and, with `checkNan`, the engine checks each node's outputs:
 * "Function 'XBackward0' returned nan values in its 0th output."
 */
let enabled = false;
let checkNan = true;

export function setDetectAnomaly(mode: boolean, nan = true): void {
  enabled = mode;
  checkNan = nan;
}

export function isAnomalyEnabled(): boolean {
  return enabled;
}

/** PyTorch's AnomalyMode::should_check_nan. */
export function isAnomalyCheckNanEnabled(): boolean {
  return enabled && checkNan;
}

/** Runs `fn` with anomaly detection on (PyTorch's detect_anomaly context manager). */
export function detectAnomaly<T>(fn: () => T, nan = true): T {
  const prev = [enabled, checkNan] as const;
  setDetectAnomaly(true, nan);
  try {
    return fn();
  } finally {
    [enabled, checkNan] = prev;
  }
}
