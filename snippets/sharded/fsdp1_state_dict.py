"""FSDP1 state dicts: what FULL_, SHARDED_ and LOCAL_STATE_DICT hold on each rank.

Run: torchrun --standalone --nproc-per-node=2 fsdp1_state_dict.py
Variants: gloo-cpu, nccl-cuda
"""
import gc
import os
import warnings
from collections import Counter

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import (
    FullOptimStateDictConfig,
    FullStateDictConfig,
    LocalOptimStateDictConfig,
    LocalStateDictConfig,
    OptimStateDictConfig,
    ShardedOptimStateDictConfig,
    ShardedStateDictConfig,
    StateDictConfig,
    StateDictSettings,
    StateDictType,
)
from torch.distributed.fsdp.wrap import ModuleWrapPolicy

backend = os.environ.get("BACKEND", "gloo")  # BACKEND=nccl DEVICE=cuda on GPUs
device_type = os.environ.get("DEVICE", "cpu")
device = torch.device("cpu")
if device_type == "cuda":
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
dist.init_process_group(backend, device_id=device if device.type == "cuda" else None)
rank = dist.get_rank()

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)
model = FSDP(model, auto_wrap_policy=ModuleWrapPolicy({nn.Linear}), device_id=device)

# each type with its model config and its optimizer config
kinds = {
    StateDictType.FULL_STATE_DICT: (
        FullStateDictConfig(offload_to_cpu=True, rank0_only=True),
        FullOptimStateDictConfig(offload_to_cpu=True, rank0_only=True)),
    StateDictType.SHARDED_STATE_DICT: (ShardedStateDictConfig(offload_to_cpu=False),
                                       ShardedOptimStateDictConfig(offload_to_cpu=False)),
    StateDictType.LOCAL_STATE_DICT: (LocalStateDictConfig(), LocalOptimStateDictConfig()),
}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")  # set_state_dict_type warns: printed below
    for kind, (config, optim_config) in kinds.items():
        # returns the settings in force before the call
        before = FSDP.set_state_dict_type(model, kind, config, optim_config)
        settings = FSDP.get_state_dict_type(model)  # the settings now in force
        assert isinstance(settings, StateDictSettings) and isinstance(before, StateDictSettings)
        assert isinstance(settings.state_dict_config, StateDictConfig)
        assert isinstance(settings.optim_state_dict_config, OptimStateDictConfig)
        print(f"rank {rank} {kind.name}: {type(settings.state_dict_config).__name__},"
              f" before {before.state_dict_type.name}")
        state = model.state_dict()  # the type set above decides what this returns
        for key, value in state.items():
            shape = list(value.shape)
            if hasattr(value, "local_shards"):  # a ShardedTensor: global shape, local pieces
                local = [list(s.tensor.shape) for s in value.local_shards()]
                shape = f"{shape}, local {local}"
            print(f"rank {rank}   {key}: {type(value).__name__} {shape}")
        if not state:
            print(f"rank {rank}   (empty)")
messages = Counter(f"{w.category.__name__}: {str(w.message).split('. ')[0]}" for w in caught)
for message, count in messages.items():  # each distinct warning once, with its count
    print(f"rank {rank} {count} x {message}")

del model, state, value, caught
gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
dist.barrier()  # no rank tears down while a peer still talks to it
dist.destroy_process_group()
