"""torch.profiler: name a region with record_function, record only some steps with a schedule,
write the trace with tensorboard_trace_handler, and read the events back (never timings here:
they differ on every run).

Run: python profiler_basics.py
Variants: cpu, cuda
"""
import os
import tempfile

# The profiler's tracing library (Kineto) logs its start and stop on stderr; 6 silences it.
os.environ.setdefault("KINETO_LOG_LEVEL", "6")

import torch  # noqa: E402
from torch.profiler import (  # noqa: E402
    DeviceType,
    ProfilerAction,
    ProfilerActivity,
    kineto_available,
    profile,
    record_function,
    schedule,
    supported_activities,
    tensorboard_trace_handler,
)

DEVICE = os.environ.get("DEVICE", "cpu")  # DEVICE=cuda on a GPU machine
activities = [ProfilerActivity.CPU]
if DEVICE == "cuda":
    activities.append(ProfilerActivity.CUDA)  # the GPU kernels too
print("kineto:", kineto_available(), "CPU supported:",
      ProfilerActivity.CPU in supported_activities())

model = torch.nn.Linear(8, 4).to(DEVICE)
x = torch.ones(16, 8, device=DEVICE)

# One region, profiled as a whole
with profile(activities=activities) as prof:
    with record_function("my_block"):  # a named range in the trace
        model(x).sum().backward()
names = {event.key for event in prof.key_averages()}  # one row per name, summed
print("in key_averages:",
      sorted(n for n in names if n in ("my_block", "aten::linear", "aten::mm")))
cpu_events = [e for e in prof.events() if e.device_type == DeviceType.CPU]
print("my_block events on the CPU:", sum(e.name == "my_block" for e in cpu_events))
if DEVICE == "cuda":
    print("GPU events:", any(e.device_type == DeviceType.CUDA for e in prof.events()))

# A schedule maps a step number to an action: skip 1, warm up 1, record 2, once
plan = schedule(wait=1, warmup=1, active=2, repeat=1)
print("actions:", [plan(step).name for step in range(6)])
print("is a ProfilerAction:", isinstance(plan(0), ProfilerAction))

ready = []
with tempfile.TemporaryDirectory() as folder:
    write_trace = tensorboard_trace_handler(folder)  # one .pt.trace.json file per cycle

    def on_trace_ready(p):  # called at the end of each active cycle
        ready.append(p.step_num)
        write_trace(p)

    with profile(activities=activities, schedule=plan, on_trace_ready=on_trace_ready) as prof:
        for step in range(6):
            with record_function("my_block"):
                model(x).sum().backward()
            prof.step()  # a step ended: the schedule moves on
    files = os.listdir(folder)
    print("trace files:", len(files), "named *.pt.trace.json:",
          all(f.endswith(".pt.trace.json") for f in files))
print("on_trace_ready after step:", ready)
counts = {event.key: event.count for event in prof.key_averages()}  # the active steps only
print("my_block count:", counts["my_block"], "ProfilerStep* count:", counts["ProfilerStep*"])
