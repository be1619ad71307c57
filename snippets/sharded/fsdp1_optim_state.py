"""FSDP1 optimizer state: optim_state_dict, optim_state_dict_to_load, and a sharded DCP round
trip.

Run: torchrun --standalone --nproc-per-node=2 fsdp1_optim_state.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os
import shutil
import tempfile
import warnings

import torch
import torch.distributed as dist
# Before init_process_group: imported later (as optimizers do), it keeps a reference
# to the default group, and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint import load_sharded_optimizer_state_dict
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import OptimStateKeyType, StateDictType
from torch.distributed.fsdp.wrap import ModuleWrapPolicy

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()


def make():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)
    model = FSDP(model, auto_wrap_policy=ModuleWrapPolicy({nn.Linear}), device_id=device)
    return model, torch.optim.Adam(model.parameters(), lr=0.1)


model, optimizer = make()
torch.manual_seed(1 + rank)
model(torch.randn(4, 4, device=device)).sum().backward()
optimizer.step()  # now Adam has state: step, exp_avg, exp_avg_sq

with warnings.catch_warnings(record=True):  # the FutureWarnings of state_dict_type
    warnings.simplefilter("always")
    # the default type, FULL_STATE_DICT: unflattened, keyed by parameter name
    full = FSDP.optim_state_dict(model, optimizer)  # collective
    exp_avg = full["state"]["0.weight"]["exp_avg"]
    print(f"rank {rank} full: keys {list(full['state'])}, 0.weight exp_avg "
          f"{list(exp_avg.shape)}")
    # keyed by position, loadable by an optimizer of the same model without FSDP
    plain = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
    by_id = FSDP.rekey_optim_state_dict(full, OptimStateKeyType.PARAM_ID, plain)
    print(f"rank {rank} rekeyed to PARAM_ID: keys {list(by_id['state'])}")
    try:  # the wrapped model: several names share one flat parameter
        FSDP.rekey_optim_state_dict(full, OptimStateKeyType.PARAM_ID, model)
    except RuntimeError as exc:
        print(f"rank {rank} with the wrapped model: RuntimeError: {exc}")
    # back to this rank's flat shards, for the wrapped optimizer
    flat = FSDP.optim_state_dict_to_load(model, optimizer, full)
    print(f"rank {rank} to load: {[list(s['exp_avg'].shape) for s in flat['state'].values()]}")
    optimizer.load_state_dict(flat)

    # A directory every rank can reach: rank 0 creates it and sends its path to the others.
    holder = [tempfile.mkdtemp() if rank == 0 else None]
    dist.broadcast_object_list(holder, src=0)
    ckpt = holder[0]
    with FSDP.state_dict_type(model, StateDictType.SHARDED_STATE_DICT):
        state = {"model": model.state_dict(), "optim": FSDP.optim_state_dict(model, optimizer)}
        dcp.save(state, checkpoint_id=ckpt)  # each rank writes its own shards

    model2, optimizer2 = make()  # a fresh model, e.g. after a restart
    with FSDP.state_dict_type(model2, StateDictType.SHARDED_STATE_DICT):
        state = {"model": model2.state_dict()}
        dcp.load(state, checkpoint_id=ckpt)  # fills the tensors in place
        model2.load_state_dict(state["model"])
        # the optimizer state, read back in the layout of this model's sharded state dict
        loaded = load_sharded_optimizer_state_dict(
            model_state_dict=state["model"], optimizer_key="optim",
            storage_reader=dcp.FileSystemReader(ckpt))
        exp_avg = loaded["optim"]["state"]["0.weight"]["exp_avg"]
        print(f"rank {rank} loaded from DCP: 0.weight exp_avg {type(exp_avg).__name__}"
              f" {list(exp_avg.shape)}")
        flat = FSDP.optim_state_dict_to_load(model2, optimizer2, loaded["optim"])
        optimizer2.load_state_dict(flat)

same = all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters()))
same_state = all(torch.equal(optimizer.state[a]["exp_avg"], optimizer2.state[b]["exp_avg"])
                 for a, b in zip(model.parameters(), model2.parameters()))
print(f"rank {rank} parameters equal after load: {same}, exp_avg equal: {same_state}")

dist.barrier()  # every rank has finished loading before the directory is deleted
if rank == 0:
    shutil.rmtree(ckpt)
del model, optimizer, model2, optimizer2, plain, full, by_id, flat, state, loaded, exp_avg
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
