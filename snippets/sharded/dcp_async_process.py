"""dcp.async_save in a checkpoint process (AsyncCheckpointerType.PROCESS) with a DefaultStager
that stages into shared memory; then a fresh model and optimizer resume from the checkpoint.

Run: torchrun --standalone --nproc-per-node=2 dcp_async_process.py
Variants: gloo-cpu
Timeout: 180
"""
import gc
import logging
import multiprocessing
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
from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

# The checkpoint process imports this file too, and logs every request on stderr at INFO
# level (torch 2.15): keep its warnings and errors only.
logging.getLogger().addFilter(lambda record: record.levelno > logging.INFO)


def build(seed, mesh):
    torch.manual_seed(seed)
    model = fully_shard(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), mesh=mesh)
    return model, torch.optim.Adam(model.parameters(), lr=0.1)


def train_step(model, optimizer, step):
    torch.manual_seed(100 + 10 * step + dist.get_rank())  # this rank's batch of step `step`
    loss = model(torch.randn(4, 4)).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.detach()


def snapshot(model, optimizer):
    """This rank's shards of the weights and of Adam's state, copied."""
    model_sd, optim_sd = get_state_dict(model, optimizer)
    tensors = list(model_sd.values())
    for state in optim_sd["state"].values():
        tensors += [v for v in state.values() if isinstance(v, torch.Tensor)]
    return [t.to_local().clone() if hasattr(t, "to_local") else t.clone() for t in tensors]


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    mesh = init_device_mesh("cpu", (2,))

    # The defaults of StagingOptions; the last one needs an accelerator.
    print(f"rank {rank}: {StagingOptions()}")
    with warnings.catch_warnings(record=True) as caught:  # printed below
        warnings.simplefilter("always")
        try:
            DefaultStager()
        except AssertionError as error:  # printed on purpose
            print(f"rank {rank}: DefaultStager() on CPU: AssertionError: {error}")
    for warning in caught:
        print(f"rank {rank}: and warned: {warning.message}")
    # On CPU: shared memory (the checkpoint process reads the copy without another copy)
    # and a staging thread.
    stager = DefaultStager(StagingOptions(use_pinned_memory=False, use_shared_memory=True,
                                          use_async_staging=True, use_non_blocking_copy=False))

    holder = [tempfile.mkdtemp() if rank == 0 else None]
    dist.broadcast_object_list(holder, src=0)
    path = os.path.join(holder[0], "step2")

    model, optimizer = build(0, mesh)
    for step in range(2):
        train_step(model, optimizer, step)
    saved = snapshot(model, optimizer)
    model_sd, optim_sd = get_state_dict(model, optimizer)
    response = dcp.async_save({"model": model_sd, "optim": optim_sd}, checkpoint_id=path,
                              async_checkpointer_type=AsyncCheckpointerType.PROCESS,
                              async_stager=stager)
    print(f"rank {rank}: async_save returned an {type(response).__name__}")
    response.staging_completion.result()  # the copy is made: training may change the weights
    loss_after = train_step(model, optimizer, step=2)  # runs while the other process writes
    metadata = response.upload_completion.result()
    print(f"rank {rank}: written: {type(metadata).__name__};"
          f" child processes of this rank: {len(multiprocessing.active_children())}")
    stager.close()  # a stager you pass is yours to close

    # Resume: a model and optimizer built with other weights load the checkpoint.
    resumed, resumed_optimizer = build(1, mesh)
    model_sd, optim_sd = get_state_dict(resumed, resumed_optimizer)
    state = {"model": model_sd, "optim": optim_sd}
    dcp.load(state, checkpoint_id=path)
    set_state_dict(resumed, resumed_optimizer, model_state_dict=state["model"],
                   optim_state_dict=state["optim"])
    now = snapshot(resumed, resumed_optimizer)
    print(f"rank {rank}: {len(now)} tensors (weights, Adam's step and moments)"
          f" equal to those saved: {all(torch.equal(a, b) for a, b in zip(saved, now))}")
    resumed_loss = train_step(resumed, resumed_optimizer, step=2)
    print(f"rank {rank}: step 2 loss {loss_after.item():.6f}, resumed {resumed_loss.item():.6f},"
          f" equal: {torch.equal(loss_after, resumed_loss)}")

    dist.barrier()  # every rank has finished loading before the directory is deleted
    if rank == 0:
        shutil.rmtree(holder[0])

    # The checkpoint process serves every later PROCESS save until this process exits; torch
    # 2.15 has no public call to stop it. With no save pending, end it here rather than leave
    # it to the exit (where, if this process ends with os._exit, it fails with EOFError).
    for process in multiprocessing.active_children():
        process.terminate()
        process.join()
        print(f"rank {rank}: checkpoint process ended, exit code {process.exitcode}")

    del model, optimizer, resumed, resumed_optimizer, mesh, state, model_sd, optim_sd
    gc.collect()  # FSDP's modules, hooks and graphs form cycles: free them now
    dist.barrier()  # no rank tears down while a peer still talks to it
    dist.destroy_process_group()


# The checkpoint process is started with "spawn": it imports this file, which must not
# start training again when it does.
if __name__ == "__main__":
    main()
