// Registration is a plain import list (see Note [Kernel names]).
import './registerMath.js';
import './registerStructure.js';
import './registerConv.js';
