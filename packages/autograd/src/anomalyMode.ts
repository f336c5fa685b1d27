let detect = false;

export function setDetectAnomaly(enabled: boolean): void {
  detect = enabled;
}

export function isAnomalyEnabled(): boolean {
  return detect;
}

/** Runs `fn` with anomaly detection on: NaN checks after every node, forward traces in errors. */
export function detectAnomaly<T>(fn: () => T): T {
  const prev = detect;
  detect = true;
  try {
    return fn();
  } finally {
    detect = prev;
  }
}
