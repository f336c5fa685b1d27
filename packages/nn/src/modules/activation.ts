import { type Tensor, relu } from '@wiregrad/autograd';
import { Module } from '../module.js';

export class ReLU extends Module {
  forward(x: Tensor): Tensor {
    return relu(x);
  }
}
