# PyTorch's parameter server as a benchmark peer of `pnpm bench ps` (bench/ps.bench.ts).
#
# `torchPsPeer.py <port> <trainers> <epochs>`: the demo's `ps` example written with
# torch.distributed.rpc, asynchronous updates (Note [Trainers compute, the server updates] in
# apps/demo): a server process ("ps") holds the 4-16-3 MLP and an SGD optimizer (momentum
# 0.9, weight decay 1e-3); each trainer process runs forward and backward on its own share of
# 120 rows of 4 features (batches of 10) and sends the gradients with rpc_sync, which answers
# with the parameters after the server's step, and evaluates 30 held-out rows after every
# epoch, as the demo's trainers do. The rows are random (this measures steps, not accuracy).
# Each trainer times the second half of its epochs (Note [Steady-state steps/s]); the script
# writes one JSON line, {"torch": version, "stepsPerSec": sum over trainers}, or {"error": ...}.
import json
import sys
import threading
import time

import torch
import torch.distributed.rpc as rpc
import torch.multiprocessing as mp
import torch.nn.functional as F

ROWS, TEST_ROWS, BATCH = 120, 30, 10
state = {}


def options(port):
    # TensorPipe over uv with the basic channel: see bench/torchRpcPeer.py
    return rpc.TensorPipeRpcBackendOptions(
        init_method=f'tcp://127.0.0.1:{port}',
        rpc_timeout=120,
        _transports=['uv'],
        _channels=['basic'],
    )


def forward(p, x):
    return F.linear(F.relu(F.linear(x, p[0], p[1])), p[2], p[3])


def join():
    with state['lock']:
        return [p.detach().clone() for p in state['params']]


def update(grads):
    # TensorPipe runs requests on a pool of threads: one step at a time
    with state['lock']:
        for p, g in zip(state['params'], grads):
            p.grad = g
        state['opt'].step()
        return [p.detach().clone() for p in state['params']]


def server(port, world):
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
    state['params'] = list(model.parameters())
    state['opt'] = torch.optim.SGD(state['params'], lr=0.05, momentum=0.9, weight_decay=1e-3)
    state['lock'] = threading.Lock()
    rpc.init_rpc('ps', rank=0, world_size=world, rpc_backend_options=options(port))
    rpc.shutdown()


def trainer(rank, port, world, epochs, results):
    torch.set_num_threads(1)
    torch.manual_seed(rank)
    rpc.init_rpc(f'trainer{rank}', rank=rank, world_size=world, rpc_backend_options=options(port))
    share = ROWS // (world - 1)
    x, y = torch.randn(share, 4), torch.randint(0, 3, (share,))
    xt, yt = torch.randn(TEST_ROWS, 4), torch.randint(0, 3, (TEST_ROWS,))
    params = rpc.rpc_sync('ps', join)
    steps, half = 0, None
    for epoch in range(1, epochs + 1):
        if epoch == epochs // 2 + 1:
            half = (time.perf_counter(), steps)
        for i in range(0, share, BATCH):
            ps = [p.requires_grad_() for p in params]
            logits = forward(ps, x[i : i + BATCH])
            loss = F.cross_entropy(logits, y[i : i + BATCH])
            grads = torch.autograd.grad(loss, ps)
            params = rpc.rpc_sync('ps', update, args=(grads,))
            loss.item()
            (logits.argmax(1) == y[i : i + BATCH]).float().mean().item()
            steps += 1
        with torch.no_grad():
            (forward(params, xt).argmax(1) == yt).float().mean().item()
    results.put((steps - half[1]) / (time.perf_counter() - half[0]))
    rpc.shutdown()


def main():
    port, trainers, epochs = (int(a) for a in sys.argv[1:4])
    ctx = mp.get_context('spawn')
    results = ctx.Queue()
    world = trainers + 1
    procs = [ctx.Process(target=server, args=(port, world))]
    procs += [ctx.Process(target=trainer, args=(r, port, world, epochs, results)) for r in range(1, world)]
    for p in procs:
        p.start()
    try:
        total = sum(results.get(timeout=600) for _ in range(trainers))
        print(json.dumps({'torch': torch.__version__, 'stepsPerSec': total}), flush=True)
    except Exception as e:  # noqa: BLE001 - reported to the bench as text
        print(json.dumps({'error': f'{type(e).__name__}: {e}'}), flush=True)
        for p in procs:
            p.kill()
    for p in procs:
        p.join()


if __name__ == '__main__':
    main()
