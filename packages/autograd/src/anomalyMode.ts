import { platform } from '#platform';

/**
 * PyTorch's AnomalyMode: when on, every node created records where in user code it was made
 * (a failing node's is then printed as a warning, See Note [Anomaly metadata]), and, with
 * `checkNan`, the engine checks each node's outputs:
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

/** Runs `fn` with anomaly detection on (PyTorch's detect_anomaly context manager, which warns that it is slow). */
export function detectAnomaly<T>(fn: () => T, nan = true): T {
  platform.warn(
    'Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.',
    'UserWarning',
  );
  const prev = [enabled, checkNan] as const;
  setDetectAnomaly(true, nan);
  try {
    return fn();
  } finally {
    [enabled, checkNan] = prev;
  }
}
