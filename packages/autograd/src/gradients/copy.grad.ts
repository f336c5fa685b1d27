import { KernelNames as K, castTo, moveTo } from '@wiregrad/tensor';
import { registerGradient } from './registry.js';

// Copies, casts and moves: the gradient goes back the same way.
registerGradient({ kernelName: K.Copy, gradFunc: ([g]) => [g!] });
registerGradient({ kernelName: K.Cast, gradFunc: ([g], c) => [castTo(g!, c.inputDtypes[0]!)] });
registerGradient({ kernelName: K.ToDevice, gradFunc: ([g], c) => [moveTo(g!, c.inputDevices[0]!)] });
