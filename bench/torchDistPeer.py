# One rank of PyTorch 1.13's side of `pnpm bench distributed` (gloo), the same cases as
# distributedWorker.ts: BENCH_MODE=allreduce or ddp, torchrun's variables, 1 thread. Rank 0
# prints one JSON line per result.
import json
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
dist.init_process_group('gloo')
rank = dist.get_rank()
world = dist.get_world_size()


def report(r):
    if rank == 0:
        print(json.dumps(r), flush=True)


def timed(iters, fn):
    # as many untimed calls first as timed ones (at least 2), as distributedWorker.ts's timed
    for _ in range(max(2, iters)):
        fn()
    dist.barrier()
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return sorted(times)[len(times) // 2]


if os.environ.get('BENCH_MODE') == 'allreduce':
    cases = [('8 B', 8, 50), ('4 MiB', 4 << 20, 10), ('64 MiB', 64 << 20, 3)]
    if os.environ.get('BENCH_QUICK') == '1':  # the CI smoke run (distributed's benchSmoke spec)
        cases = [('8 B', 8, 10), ('4 MiB', 4 << 20, 3)]
    for label, nbytes, iters in cases:
        t = torch.zeros(nbytes // 4)
        report({'case': label, 'ms': timed(iters, lambda: dist.all_reduce(t))})
else:
    widths = [int(w) for w in os.environ.get('BENCH_WIDTHS', '784,256,10').split(',')]
    layers = []
    for i in range(len(widths) - 1):
        if i > 0:
            layers.append(nn.ReLU())
        layers.append(nn.Linear(widths[i], widths[i + 1]))
    torch.manual_seed(0)
    model = nn.Sequential(*layers)
    x = torch.randn(64, widths[0])
    y = torch.randint(0, widths[-1], (64,))
    views = os.environ.get('BENCH_GRAD_VIEWS') == '1'  # gradient_as_bucket_view, as distributedWorker.ts
    ddp = nn.parallel.DistributedDataParallel(model, gradient_as_bucket_view=views) if world > 1 else None
    net = ddp if ddp is not None else model
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        opt.step()

    def local_step():
        with ddp.no_sync():
            step()

    steps = int(os.environ.get('BENCH_STEPS', '30'))
    step_ms = timed(steps, step)
    local_ms = timed(steps, local_step) if ddp is not None else step_ms
    flat = torch.zeros(sum(p.numel() for p in model.parameters()))
    comm_ms = timed(steps, lambda: dist.all_reduce(flat)) if ddp is not None else 0
    report({'widths': '-'.join(map(str, widths)), 'world': world, 'stepMs': step_ms,
            'localMs': local_ms, 'commMs': comm_ms})
dist.destroy_process_group()
