import './gradients/index.js';
import { installRecording } from './engine/record.js';
import { installTensorMethods } from './tensorMethods.js';

// Importing @wiregrad/autograd plugs the engine into @wiregrad/tensor (Note [Autograd hooks]).
installRecording();
installTensorMethods();
