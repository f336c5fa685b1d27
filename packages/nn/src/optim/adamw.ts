import { AdamFamily, type AdamOptions } from './adam.js';
import type { Params } from './optimizer.js';

/** torch.optim.AdamW: Adam with decoupled weight decay (p *= 1 - lr wd before the update); weightDecay defaults to 1e-2. */
export class AdamW extends AdamFamily {
  constructor(params: Params<AdamOptions>, opts: AdamOptions = {}) {
    super('AdamW', 1e-2, true, params, opts);
  }
}
