// @wiregrad/test-helpers: what the specs of several packages share (private, never published).
// A package's specs import it by name, never another package's src/__tests__ (eslint.config.js).
// It depends on @wiregrad/tensor only: the packages whose specs use it devDepend on it, so its
// importing one of them would be a cycle; a scenario thread's RPC teardown comes from the
// caller (WorkerSpec.teardown).
export { freePort, freePorts, runWorkers, type WorkerSpec } from './harness.js';
export type { ScenarioContext } from './scenario.js';
export { errorOf, plain, sleep, type ErrorInfo } from './util.js';
export { TcpProxy, type Direction, type TcpProxyOptions, type TcpProxyStats } from './tcpProxy.js';
export { runProcess, type ProcessRun, type RunProcessOptions } from './runProcess.js';
export { bundleFixtures, type BundledFixtures } from './bundleFixtures.js';
export {
  framesToHex,
  hexToFrames,
  goldenPath,
  readGolden,
  syncGoldenFiles,
  wireValue,
  type GoldenFrames,
} from './goldenFrames.js';
