"""Why the DDP examples import torch.distributed.nn before init_process_group (torch 2.15).

The functions of torch.distributed.nn take group=group.WORLD as a default argument, evaluated
once, when the module is imported. Nothing imports it at start-up; torch._dynamo does, and
creating a torch.optim optimizer or a DDP model imports torch._dynamo. Imported after
init_process_group(), the module holds on to the default group, and destroy_process_group()
cannot free it. A gloo group left alive keeps its worker threads running into interpreter
shutdown, where they can abort the process (see the DDP page). Each case below runs in a fresh
interpreter with a one-process gloo group.

Run: python world_group_captured.py
Timeout: 240
"""
import subprocess
import sys

CASE = """
import gc, sys, weakref
import torch
import torch.distributed as dist
if IMPORT_FIRST:
    import torch.distributed.nn
print("torch.distributed.nn imported at start:", "torch.distributed.nn" in sys.modules)
dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)  # imports torch._dynamo
print("imported after creating an optimizer:", "torch.distributed.nn" in sys.modules)
default = torch.distributed.nn.functional.all_reduce.__defaults__[-1]
print("default group of its all_reduce:", type(default).__name__)
world = weakref.ref(dist.group.WORLD)
dist.destroy_process_group()
gc.collect()
print("group alive after destroy_process_group():", world() is not None)
"""

for import_first in (False, True):
    print(f"import torch.distributed.nn before init_process_group: {import_first}")
    code = CASE.replace("IMPORT_FIRST", str(import_first))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    for line in (done.stdout + done.stderr).splitlines():
        print(f"  {line}")
