# PyTorch's RPC and distributed autograd as a benchmark peer of `pnpm bench rpc`
# (bench/torchRpcPeer.ts starts it).
#
# `torchRpcPeer.py <port> <rounds>` starts a callee process (rank 1) and runs as the caller
# (rank 0), TensorPipe over TCP on 127.0.0.1:<port>, the same cases as ours: a tiny rpc_sync
# round trip (an echo of 1) and a one-hop distributed round (forward `x * w + 1` on the
# callee, dist_autograd.backward of its sum, the gradient of x, leaving the context), each
# warmed up, then timed one at a time with perf_counter. It writes one JSON line:
# {"torch": version, "echoMs": median, "roundMs": median}, or {"error": message}.
import json
import os
import statistics
import sys
import time

import torch
import torch.distributed.autograd as dist_autograd
import torch.distributed.rpc as rpc
import torch.multiprocessing as mp


def echo(v):
    return v


def affine(x, w):
    return x * w + 1


def options(port):
    # TensorPipe over TCP (uv) with the basic channel, its fastest here: with its defaults
    # (the shm transport and the cma channel between processes of one machine) rpc_sync took
    # 3.9 ms and a round 11.9 ms, against 0.34 and 1.6 ms over uv (load 4-5); 2 or 4 worker
    # threads instead of the default 16 changed neither by more than 7 %
    return rpc.TensorPipeRpcBackendOptions(
        init_method=f'tcp://127.0.0.1:{port}',
        num_worker_threads=16,
        rpc_timeout=60,
        _transports=['uv'],
        _channels=['basic'],
    )


def callee(port):
    rpc.init_rpc('callee', rank=1, world_size=2, rpc_backend_options=options(port))
    rpc.shutdown()


def median_ms(n, fn):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def caller(port, rounds):
    rpc.init_rpc('caller', rank=0, world_size=2, rpc_backend_options=options(port))
    x = torch.rand(16, requires_grad=True)
    w = torch.rand(16)

    def tiny():
        rpc.rpc_sync('callee', echo, args=(1,))

    def round_():
        with dist_autograd.context() as cid:
            y = rpc.rpc_sync('callee', affine, args=(x, w))
            dist_autograd.backward(cid, [y.sum()])
            dist_autograd.get_gradients(cid)[x]

    # warm-up as ours (Note [Steady-state rounds])
    for _ in range(3000):
        tiny()
    echo_ms = median_ms(2000, tiny)
    for _ in range(rounds * 3 // 2):
        round_()
    round_ms = median_ms(rounds, round_)
    rpc.shutdown()
    return echo_ms, round_ms


def main():
    port, rounds = int(sys.argv[1]), int(sys.argv[2])
    torch.set_num_threads(1)
    p = mp.get_context('spawn').Process(target=callee, args=(port,))
    p.start()
    try:
        echo_ms, round_ms = caller(port, rounds)
        print(json.dumps({'torch': torch.__version__, 'echoMs': echo_ms, 'roundMs': round_ms}), flush=True)
    except Exception as e:  # noqa: BLE001 - reported to the bench as text
        print(json.dumps({'error': f'{type(e).__name__}: {e}'}), flush=True)
        p.kill()
    p.join()


if __name__ == '__main__':
    os.environ.setdefault('OMP_NUM_THREADS', '1')
    main()
