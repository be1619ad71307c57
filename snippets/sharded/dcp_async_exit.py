"""dcp.async_save, and a process that ends before the returned future resolves. Each case runs
two ranks whose save starts slowly (half a second before its first collective, as with a large
state dict), then ends them in a different way, and the launcher looks at the checkpoint
directory. Only future.result() before the teardown leaves a complete checkpoint. It starts the
ranks itself, as plain processes with the environment torchrun would give them, so that it can
end normally and show each case.

Run: python dcp_async_exit.py
Timeout: 180
"""
import os
import shutil
import subprocess
import sys
import tempfile

import torch.distributed as dist
import torch.distributed.checkpoint as dcp

WORKER = """
import os
import re
import time

import torch
import torch.distributed as dist
# Before init_process_group: imported later, it keeps a reference to the default group,
# and destroy_process_group() cannot free it (torch 2.15).
import torch.distributed.nn  # noqa: F401
import torch.distributed.checkpoint as dcp


class SlowWriter(dcp.FileSystemWriter):
    def prepare_local_plan(self, plan):  # runs in the background thread, before any collective
        time.sleep(0.5)  # stands for a slow start: a large state dict, a slow file system
        return super().prepare_local_plan(plan)


dist.init_process_group("gloo")
rank = dist.get_rank()
# the save's collectives get a group of their own, so that they never mix with the barrier below
ckpt_group = dist.new_group(backend="gloo")
state = {f"weight{rank}": torch.full((4,), float(rank)), "step": 3}
future = dcp.async_save(state, storage_writer=SlowWriter(os.environ["CKPT"]),
                        process_group=ckpt_group)
how = os.environ["HOW"]
if how == "killed":
    os._exit(0)  # stands for a crash, or the scheduler killing the job
if how == "result() first":
    future.result()  # the fix: wait for the save (and raise its error, if any)
dist.barrier()
dist.destroy_process_group()
if how == "destroy first":
    # nothing reported the failure: it is stored in the future
    error = future.exception()
    print("the future holds", type(error).__name__ + ":", re.sub(" at 0x[0-9a-f]+", "", str(error)))
"""


def launch(how, ckpt, world_size=2):
    """Run WORKER on world_size ranks as torchrun would; the exit code of each."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "worker.py")
        with open(script, "w") as file:
            file.write(WORKER)
        # the store lives here, as torchrun's agent hosts it: no free port to guess
        store = dist.TCPStore("127.0.0.1", 0, is_master=True, wait_for_workers=False)
        ranks = [subprocess.Popen(
            [sys.executable, script], text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(os.environ, HOW=how, CKPT=ckpt, RANK=str(rank), LOCAL_RANK=str(rank),
                     WORLD_SIZE=str(world_size), MASTER_ADDR="127.0.0.1",
                     MASTER_PORT=str(store.port), TORCHELASTIC_USE_AGENT_STORE="True",
                     OMP_NUM_THREADS="1"))
            for rank in range(world_size)]
        outputs = [p.communicate(timeout=60) for p in ranks]
        return [(p.returncode, out + err) for p, (out, err) in zip(ranks, outputs)]


for how in ("killed", "destroy first", "result() first"):
    ckpt = tempfile.mkdtemp()
    print(f"{how}:")
    for rank, (code, output) in enumerate(launch(how, ckpt)):
        print(f"  rank {rank}: exit code {code}"
              + "".join(f"; {line}" for line in output.splitlines()))
    print("  .metadata written:", os.path.exists(os.path.join(ckpt, ".metadata")))
    try:
        metadata = dcp.FileSystemReader(ckpt).read_metadata()
        print("  checkpoint keys:", sorted(metadata.state_dict_metadata))
    except FileNotFoundError:
        print("  read_metadata() raises FileNotFoundError: not a checkpoint")
    shutil.rmtree(ckpt)
