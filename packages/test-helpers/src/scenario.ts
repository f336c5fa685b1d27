/** What a scenario module's `run(ctx)` gets, in each worker thread (see runWorkers). */
export interface ScenarioContext {
  rank: number;
  worldSize: number;
  initMethod: string;
  extra: unknown;
}
