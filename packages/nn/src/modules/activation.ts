import type { Tensor } from '@wiregrad/autograd';
import {
  type GeluApproximate,
  gelu,
  logSoftmax,
  relu,
  sigmoid,
  silu,
  softmax,
  tanh,
} from '../functional/activation.js';
import { Module } from '../module.js';

export class ReLU extends Module {
  forward(x: Tensor): Tensor {
    return relu(x);
  }
}

export class Tanh extends Module {
  forward(x: Tensor): Tensor {
    return tanh(x);
  }
}

export class Sigmoid extends Module {
  forward(x: Tensor): Tensor {
    return sigmoid(x);
  }
}

/** x Φ(x); `approximate: 'tanh'` for the tanh form. */
export class GELU extends Module {
  readonly approximate: GeluApproximate;

  constructor(opts: { approximate?: GeluApproximate } = {}) {
    super();
    this.approximate = opts.approximate ?? 'none';
  }

  forward(x: Tensor): Tensor {
    return gelu(x, { approximate: this.approximate });
  }

  override extraRepr(): string {
    return `approximate='${this.approximate}'`;
  }
}

/** x σ(x) */
export class SiLU extends Module {
  forward(x: Tensor): Tensor {
    return silu(x);
  }
}

export class Softmax extends Module {
  constructor(readonly dim: number) {
    super();
  }

  forward(x: Tensor): Tensor {
    return softmax(x, this.dim);
  }

  override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}

export class LogSoftmax extends Module {
  constructor(readonly dim: number) {
    super();
  }

  forward(x: Tensor): Tensor {
    return logSoftmax(x, this.dim);
  }

  override extraRepr(): string {
    return `dim=${this.dim}`;
  }
}
