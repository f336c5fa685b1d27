// Registration is a plain import list, one file per tensor ops file (see Note [Gradient rules]).
import './binary.grad.js';
import './unary.grad.js';
import './where.grad.js';
import './copy.grad.js';
import './reduce.grad.js';
import './softmax.grad.js';
import './matmul.grad.js';
import './view.grad.js';
import './indexing.grad.js';
import './join.grad.js';
import './inplace.grad.js';
import './conv.grad.js';
