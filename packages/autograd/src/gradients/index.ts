// Registration is a plain import list (see Note [Gradient rules]).
import './elementwise.grad.js';
import './reduce.grad.js';
import './structure.grad.js';
