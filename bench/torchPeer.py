# PyTorch as a benchmark peer of `pnpm bench` (bench/torchPeer.ts starts it).
#
# One process per thread count: `torchPeer.py <threads>`, started by bench/torchPeer.ts with
# OMP_NUM_THREADS and OPENBLAS_NUM_THREADS set to it as well, so both pools are sized before
# torch loads. Protocol, one line each way: the bench writes `<case> <calls>`; this script
# runs the case `calls` times in a row (its setup is made on first use and kept) and answers
# the milliseconds of each call, space-separated, timed here with perf_counter so the pipe's
# latency is not counted, or `error <message>`. `ready <torch version>` is the first line
# written. The bench is idle while a block runs (Note [Timed blocks] in bench/report.ts).
import ctypes
import sys
import time

import torch
import torch.nn.functional as F

CHAIN = 1000
N_ELEM = 1 << 20

state = {}


def openblas():
    """Debian's torch calls BLAS through libblas.so.3 (OpenBLAS here), whose own thread pool
    torch.set_num_threads does not size: a '1 thread' matmul ran on every core."""
    for name in ('libblas.so.3', 'libopenblas.so.0'):
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        if hasattr(lib, 'openblas_set_num_threads'):
            return lib
    return None


BLAS = openblas()


def set_threads(n):
    torch.set_num_threads(n)
    if BLAS is not None:
        BLAS.openblas_set_num_threads(n)


def setup(case):
    if case.startswith('matmul'):
        n = int(case[len('matmul'):])
        a, b = torch.randn(n, n), torch.randn(n, n)
        return lambda: a @ b
    if case == 'add':
        x, y = torch.randn(N_ELEM), torch.randn(N_ELEM)
        return lambda: x + y
    if case == 'add_':
        x, y = torch.randn(N_ELEM), torch.randn(N_ELEM)
        return lambda: x.add_(y)
    if case == 'exp':
        x = torch.randn(N_ELEM)
        return lambda: torch.exp(x)
    if case == 'chain':
        x = torch.tensor(1.5, requires_grad=True)

        def chain():
            y = x
            for i in range(CHAIN):
                y = y * 1.0001 if i % 2 == 0 else y + 0.5
            y.backward()

        return chain
    if case == 'mlp':
        model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        xs = torch.randn(64, 784)
        ys = torch.arange(64) % 10

        def step():
            opt.zero_grad()
            F.cross_entropy(model(xs), ys).backward()
            opt.step()

        return step
    if case == 'lstm':
        # bench/seq.bench.ts: an LSTM layer, seq 64, batch 32, input and hidden 256, forward + backward
        lstm = torch.nn.LSTM(256, 256)
        x = torch.randn(64, 32, 256)

        def lstm_step():
            lstm.zero_grad(set_to_none=True)
            out, _ = lstm(x)
            out.sum().backward()

        return lstm_step
    if case == 'encoderLayer':
        # bench/seq.bench.ts: TransformerEncoderLayer(128, 4) (feed-forward 2048, dropout 0.1, training),
        # seq 64, batch 32, forward + backward + SGD step
        layer = torch.nn.TransformerEncoderLayer(128, 4)
        opt = torch.optim.SGD(layer.parameters(), lr=0.01)
        src = torch.randn(64, 32, 128)

        def encoder_step():
            opt.zero_grad(set_to_none=True)
            layer(src).sum().backward()
            opt.step()

        return encoder_step
    raise ValueError(f'unknown case {case}')


def main():
    set_threads(int(sys.argv[1]))
    print(f'ready {torch.__version__}', flush=True)
    for line in sys.stdin:
        try:
            case, calls = line.split()
            fn = state.get(case)
            if fn is None:
                fn = state[case] = setup(case)
            times = []
            for _ in range(int(calls)):
                start = time.perf_counter()
                fn()
                times.append((time.perf_counter() - start) * 1e3)
            print(' '.join(f'{ms:.6f}' for ms in times), flush=True)
        except Exception as e:  # answered, so the bench reports it instead of hanging
            print(f'error {type(e).__name__}: {e}'.replace('\n', ' '), flush=True)


main()
