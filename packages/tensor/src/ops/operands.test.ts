import { describe, expect, it } from 'vitest';
import { add, operandsResultType, promoteOperands, tensor, zeros, type DType, type TensorOrScalar } from '../index.js';

/**
 * torch.result_type(a, b) from PyTorch 1.13, int64 read as int32: `T` a tensor with dims,
 * `T@0` a 0-dim tensor, `T#` a wrapped JS value (true, 2, 2.5).
 */
const TORCH_TABLE = `
bool bool bool|bool int32 int32|bool float32 float32|bool float64 float64|int32 bool int32|int32 int32 int32
int32 float32 float32|int32 float64 float64|float32 bool float32|float32 int32 float32|float32 float32 float32
float32 float64 float64|float64 bool float64|float64 int32 float64|float64 float32 float64|float64 float64 float64
bool bool@0 bool|bool int32@0 int32|bool float32@0 float32|bool float64@0 float64|int32 bool@0 int32
int32 int32@0 int32|int32 float32@0 float32|int32 float64@0 float64|float32 bool@0 float32|float32 int32@0 float32
float32 float32@0 float32|float32 float64@0 float32|float64 bool@0 float64|float64 int32@0 float64
float64 float32@0 float64|float64 float64@0 float64|bool bool# bool|bool int32# int32|bool float32# float32
int32 bool# int32|int32 int32# int32|int32 float32# float32|float32 bool# float32|float32 int32# float32
float32 float32# float32|float64 bool# float64|float64 int32# float64|float64 float32# float64
bool@0 bool bool|bool@0 int32 int32|bool@0 float32 float32|bool@0 float64 float64|int32@0 bool int32
int32@0 int32 int32|int32@0 float32 float32|int32@0 float64 float64|float32@0 bool float32|float32@0 int32 float32
float32@0 float32 float32|float32@0 float64 float64|float64@0 bool float64|float64@0 int32 float64
float64@0 float32 float32|float64@0 float64 float64|bool@0 bool@0 bool|bool@0 int32@0 int32
bool@0 float32@0 float32|bool@0 float64@0 float64|int32@0 bool@0 int32|int32@0 int32@0 int32
int32@0 float32@0 float32|int32@0 float64@0 float64|float32@0 bool@0 float32|float32@0 int32@0 float32
float32@0 float32@0 float32|float32@0 float64@0 float64|float64@0 bool@0 float64|float64@0 int32@0 float64
float64@0 float32@0 float64|float64@0 float64@0 float64|bool@0 bool# bool|bool@0 int32# int32
bool@0 float32# float32|int32@0 bool# int32|int32@0 int32# int32|int32@0 float32# float32|float32@0 bool# float32
float32@0 int32# float32|float32@0 float32# float32|float64@0 bool# float64|float64@0 int32# float64
float64@0 float32# float64`;

const SCALARS: Partial<Record<DType, number | boolean>> = { bool: true, int32: 2, float32: 2.5 };

function operand(spec: string): TensorOrScalar {
  const [dtype, kind] = [
    spec.replace(/[@#].*/, '') as DType,
    spec.slice(-2) === '@0' ? '0-dim' : spec.endsWith('#') ? 'scalar' : 'dims',
  ];
  if (kind === 'scalar') return SCALARS[dtype]!;
  return kind === '0-dim' ? zeros([], { dtype }) : zeros([2], { dtype });
}

const cases = TORCH_TABLE.trim()
  .split(/[|\n]/)
  .map((row) => row.trim().split(' ') as [string, string, DType]);

describe('type promotion (Note [Type promotion])', () => {
  it('has all 88 rows of the table', () => expect(cases).toHaveLength(88));

  it.each(cases)('%s with %s gives %s, as torch.result_type does', (a, b, want) => {
    const x = operand(a);
    const y = operand(b);
    expect(operandsResultType([x, y])).toBe(want);
    expect(add(x, y).dtype).toBe(want);
  });

  it('promoteOperands casts tensors and wraps scalars on the tensor side, in one dtype', () => {
    const i = zeros([3], { dtype: 'int32' });
    const [a, b] = promoteOperands([i, 0.5]);
    expect([a!.dtype, b!.dtype, b!.ndim]).toEqual(['float32', 'float32', 0]);
    expect(b!.item()).toBe(0.5);
    const [c] = promoteOperands([i, 1]);
    expect(c).toBe(i);
    expect(promoteOperands([-0, tensor([1])])[0]!.item()).toBe(-0);
    expect(() => promoteOperands([1, 2])).toThrow('at least one operand must be a Tensor');
  });
});
