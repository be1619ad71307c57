"""A live support matrix: which operations and ReduceOps this backend runs on this device.

Every cell runs one operation on both ranks with a 5 s timeout and checks the result. A cell
that fails gets a fresh process group for the next one, so one failure cannot break the rest.
Rank 0 prints the table; a cross means the call raised (the footnote quotes the error) or
returned a wrong result.

Run: torchrun --standalone --nproc-per-node=2 support_matrix.py
Variants: gloo-cpu, gloo-cuda, nccl-cuda
"""
import os
import re
from datetime import timedelta

import torch
import torch.distributed as dist

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
if os.environ.get("DEVICE", "cpu") == "cuda":
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]) % torch.cuda.device_count())
    torch.cuda.set_device(device)
else:
    device = torch.device("cpu")
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank, world = dist.get_rank(), dist.get_world_size()
assert world == 2, "the expected values below are written for 2 ranks"
peer = 1 - rank
CELL_TIMEOUT = timedelta(seconds=5)
coord = dist.new_group(backend="gloo")  # CPU group that only collects the verdicts


def t(*values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, device=device)


def same(tensor, *values):
    return tensor.tolist() == list(values)


# ---- operations: each returns whether this rank's result is right ----------------------
def broadcast(g):
    x = t(rank + 1)
    dist.broadcast(x, src=0, group=g)
    return same(x, 1)


def all_reduce(g):
    x = t(rank + 1)
    dist.all_reduce(x, group=g)
    return same(x, 3)


def reduce(g):
    x = t(rank + 1)
    dist.reduce(x, dst=0, group=g)
    return rank != 0 or same(x, 3)


def all_gather(g):
    out = [t(0), t(0)]
    dist.all_gather(out, t(rank + 1), group=g)
    return [o.item() for o in out] == [1, 2]


def all_gather_single(g):
    out = t(0, 0)
    dist.all_gather_single(out, t(rank + 1), group=g)
    return same(out, 1, 2)


def gather(g):
    out = [t(0), t(0)] if rank == 0 else None
    dist.gather(t(rank + 1), out, dst=0, group=g)
    return rank != 0 or [o.item() for o in out] == [1, 2]


def scatter(g):
    x = t(0)
    dist.scatter(x, [t(1), t(2)] if rank == 0 else None, src=0, group=g)
    return same(x, rank + 1)


def reduce_scatter(g):
    x = t(0)
    dist.reduce_scatter(x, [t(rank + 1), t(10 * (rank + 1))], group=g)
    return same(x, [3, 30][rank])


def reduce_scatter_single(g):
    x = t(0)
    dist.reduce_scatter_single(x, t(rank + 1, 10 * (rank + 1)), group=g)
    return same(x, [3, 30][rank])


def all_to_all(g):
    out = [t(0), t(0)]
    dist.all_to_all(out, [t(10 * rank), t(10 * rank + 1)], group=g)
    return [o.item() for o in out] == [rank, 10 + rank]


def all_to_all_single(g):
    out = t(0, 0)
    dist.all_to_all_single(out, t(10 * rank, 10 * rank + 1), group=g)
    return same(out, rank, 10 + rank)


def barrier(g):
    dist.barrier(group=g)
    return True


def monitored_barrier(g):
    dist.monitored_barrier(group=g, timeout=CELL_TIMEOUT)
    return True


def send_recv(g):
    x = t(rank + 1)
    if rank == 0:
        dist.send(x, dst=peer, group=g)
        dist.recv(x, src=peer, group=g)
    else:
        dist.recv(x, src=peer, group=g)
        dist.send(t(rank + 1), dst=peer, group=g)
    return same(x, peer + 1)


def isend_irecv(g):
    x = t(0)
    works = [dist.isend(t(rank + 1), dst=peer, group=g), dist.irecv(x, src=peer, group=g)]
    for work in works:
        work.wait()
    return same(x, peer + 1)


def batch_isend_irecv(g):
    x = t(0)
    ops = [dist.P2POp(dist.isend, t(rank + 1), peer, g), dist.P2POp(dist.irecv, x, peer, g)]
    for work in dist.batch_isend_irecv(ops):
        work.wait()
    return same(x, peer + 1)


OPERATIONS = [broadcast, all_reduce, reduce, all_gather, all_gather_single, gather, scatter,
              reduce_scatter, reduce_scatter_single, all_to_all, all_to_all_single, barrier,
              monitored_barrier, send_recv, isend_irecv, batch_isend_irecv]

# ---- ReduceOps: (name, op, dtype, this rank's value, expected result) --------------------
REDUCE_OPS = [
    ("SUM", dist.ReduceOp.SUM, torch.float32, rank + 1, 3),
    ("AVG", dist.ReduceOp.AVG, torch.float32, rank + 1, 1.5),
    ("PRODUCT", dist.ReduceOp.PRODUCT, torch.float32, rank + 1, 2),
    ("MIN", dist.ReduceOp.MIN, torch.float32, rank + 1, 1),
    ("MAX", dist.ReduceOp.MAX, torch.float32, rank + 1, 2),
    ("BAND", dist.ReduceOp.BAND, torch.int64, [6, 3][rank], 2),
    ("BOR", dist.ReduceOp.BOR, torch.int64, [6, 3][rank], 7),
    ("BXOR", dist.ReduceOp.BXOR, torch.int64, [6, 3][rank], 5),
    ("PREMUL_SUM", dist.ReduceOp.PREMUL_SUM(2.0), torch.float32, rank + 1, 6),  # 2*1 + 2*2
]


def with_op(kind, op, dtype, value, expected):
    def cell(g):
        if kind == "all_reduce":
            x = t(value, dtype=dtype)
            dist.all_reduce(x, op=op, group=g)
        elif kind == "reduce":
            x = t(value, dtype=dtype)
            dist.reduce(x, dst=0, op=op, group=g)
            if rank != 0:
                return True
        else:
            x = t(0, dtype=dtype)
            dist.reduce_scatter_single(x, t(value, value, dtype=dtype), op=op, group=g)
        return same(x, expected)
    return cell


# ---- running the cells -------------------------------------------------------------------
group = None
errors = []  # footnote texts, numbered in order of appearance


def short(exc):
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = re.sub(r"\[[^\]]*\]\s*", "", text)  # drop source locations and addresses
    return f"{type(exc).__name__}: {text}"[:90]


def run_cell(fn):
    """Run fn on both ranks; return '✔' or '✘ [n]' as both ranks agree."""
    global group
    if group is None:
        group = dist.new_group(backend=backend, timeout=CELL_TIMEOUT)
    try:
        verdict = None if fn(group) else "wrong result"
    except Exception as exc:  # noqa: BLE001 - the error is what the cell reports
        verdict = short(exc)
    verdicts = [None] * world
    dist.all_gather_object(verdicts, verdict, group=coord)
    failed = [v for v in verdicts if v is not None]
    if not failed:
        return "✔"
    group = None  # never reuse a group in which something failed
    if failed[0] not in errors:
        errors.append(failed[0])
    return f"✘ [{errors.index(failed[0]) + 1}]"


names = {"send_recv": "send + recv", "isend_irecv": "isend + irecv"}
op_rows = [(names.get(fn.__name__, fn.__name__), run_cell(fn)) for fn in OPERATIONS]
kinds = ["all_reduce", "reduce", "reduce_scatter_single"]
red_rows = [(name, str(dtype).removeprefix("torch."),
             [run_cell(with_op(kind, op, dtype, value, want)) for kind in kinds])
            for name, op, dtype, value, want in REDUCE_OPS]

if rank == 0:
    where = f"backend {backend}, device {device.type}, 2 ranks"
    if backend == "nccl":
        where += ", NCCL " + ".".join(map(str, torch.cuda.nccl.version()))
    print(f"measured on {where}\n")
    print(f"| {'operation':<21} | {backend} on {device.type} |")
    print(f"| {'-' * 21} | {'-' * (len(backend) + len(device.type) + 4)} |")
    for name, cell in op_rows:
        print(f"| {name:<21} | {cell} |")
    print()
    print(f"| {'ReduceOp':<10} | {'dtype':<7} | {' | '.join(kinds)} |")
    print(f"| {'-' * 10} | {'-' * 7} | {' | '.join('-' * len(k) for k in kinds)} |")
    for name, dtype, cells in red_rows:
        print(f"| {name:<10} | {dtype:<7} | "
              + " | ".join(f"{c:<{len(k)}}" for c, k in zip(cells, kinds)) + " |")
    for number, text in enumerate(errors, 1):
        print(f"\n[{number}] {text}", end="")
    print()
else:
    cells = len(op_rows) + len(red_rows) * len(kinds)
    print(f"rank {rank} ran the same {cells} cells; rank 0 prints the table")

del group, coord  # group handles kept alive would outlive destroy_process_group()
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
