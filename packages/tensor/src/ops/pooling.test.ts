import { describe, expect, it } from 'vitest';
import { adaptiveAvgPool2d, arange, avgPool2d, maxPool2d, maxPool2dWithIndices, randn, tensor } from '../index.js';

const x44 = () => arange(16).reshape([1, 1, 4, 4]).to('float64');

describe('pooling (windows from im2col, Note [im2col])', () => {
  it('maxPool2d: the largest value of each window, and its flat index in the input plane', () => {
    const x = tensor(
      [
        [
          [
            [1, 5, 2, 0],
            [3, 4, 8, 1],
            [0, 2, 6, 7],
            [9, 1, 3, 3],
          ],
        ],
      ],
      { dtype: 'float64' },
    );
    const { values, indices } = maxPool2dWithIndices(x, 2);
    expect(values.tolist()).toEqual([
      [
        [
          [5, 8],
          [9, 7],
        ],
      ],
    ]);
    expect(indices.tolist()).toEqual([
      [
        [
          [1, 6],
          [12, 11],
        ],
      ],
    ]);
    expect(maxPool2d(x, 3, { stride: 1, padding: 1 }).tolist()).toEqual([
      [
        [
          [5, 8, 8, 8],
          [5, 8, 8, 8],
          [9, 9, 8, 8],
          [9, 9, 7, 7],
        ],
      ],
    ]);
  });

  it('padding never wins a max, even over negative values', () => {
    expect(
      maxPool2d(
        tensor(
          [
            [
              [
                [-3, -2],
                [-5, -1],
              ],
            ],
          ],
          { dtype: 'float64' },
        ),
        2,
        { stride: 1, padding: 1 },
      ).tolist(),
    ).toEqual([
      [
        [
          [-3, -2, -2],
          [-3, -1, -1],
          [-5, -1, -1],
        ],
      ],
    ]);
  });

  it('avgPool2d: the window mean, with or without the padding in the divisor', () => {
    expect(avgPool2d(x44(), 2).tolist()).toEqual([
      [
        [
          [2.5, 4.5],
          [10.5, 12.5],
        ],
      ],
    ]);
    expect(avgPool2d(x44(), 2, { stride: 2, padding: 1 }).tolist()).toEqual([
      [
        [
          [0, 0.75, 0.75],
          [3, 7.5, 4.5],
          [3, 6.75, 3.75],
        ],
      ],
    ]);
    expect(avgPool2d(x44(), 2, { stride: 2, padding: 1, countIncludePad: false }).tolist()).toEqual([
      [
        [
          [0, 1.5, 3],
          [6, 7.5, 9],
          [12, 13.5, 15],
        ],
      ],
    ]);
  });

  it('adaptiveAvgPool2d averages PyTorch windows [floor(i·H/o), ceil((i+1)·H/o))', () => {
    const x = arange(10).reshape([1, 1, 1, 10]).to('float64');
    // windows of 10 -> 4: [0,3) [2,5) [5,8) [7,10)
    expect(adaptiveAvgPool2d(x, [1, 4]).tolist()).toEqual([[[[1, 3, 6, 8]]]]);
    expect(adaptiveAvgPool2d(randn([2, 3, 5, 5]), 1).shape).toEqual([2, 3, 1, 1]);
    expect(adaptiveAvgPool2d(randn([3, 6, 4]), [null, 2]).shape).toEqual([3, 6, 2]);
  });

  it("checks its arguments with PyTorch's messages", () => {
    expect(() => maxPool2d(randn([1, 3, 4, 4]), 3, { padding: 2 })).toThrow(
      'pad should be at most half of kernel size, but got pad=2 and kernel_size=3',
    );
    expect(() => maxPool2d(randn([1, 3, 2, 2]), 3)).toThrow(
      'Given input size: (3x2x2). Calculated output size: (3x0x0). Output size is too small',
    );
    expect(() => avgPool2d(randn([3, 4]), 2)).toThrow('non-empty 3D or 4D (batch mode) tensor expected for input');
    expect(() => adaptiveAvgPool2d(randn([2, 3]), 2)).toThrow(
      'adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [2, 3]',
    );
  });
});
