// All of tensor + autograd kept (what the size budget measures): every export stays reachable.
import * as wiregrad from '@wiregrad/autograd';

(globalThis as { wiregrad?: unknown }).wiregrad = wiregrad;
console.log(JSON.stringify({ exports: Object.keys(wiregrad).length }));
