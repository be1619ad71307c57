"""Streams, events and synchronization: a CUDA call queues work on a stream and returns at
once; an event marks a point in a stream, to wait for or to time. Timings differ between
runs: compared, never printed.

Run: python cuda_streams.py
Variants: cuda
"""
import torch

device = torch.device("cuda")
a = torch.ones(1024, 1024, device=device)
print(torch.cuda.current_stream(device) == torch.cuda.default_stream(device))

# Time GPU work with events, not with time.time(): the call returns before the GPU is done
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
start.record()
b = a @ a
end.record()
end.synchronize()  # wait until the GPU has reached `end`
print("timed:", start.elapsed_time(end) > 0)  # milliseconds, a float

# .item() copies to the CPU: it waits for every kernel queued before it
done = torch.cuda.Event()
c = b.sum()
done.record()
print(c.item(), done.query())  # query(): True once the GPU has passed the event

# A side stream runs alongside the default one; order them with wait_stream
side = torch.cuda.Stream(device)
side.wait_stream(torch.cuda.current_stream(device))  # `a` is ready before side reads it
with torch.cuda.stream(side):
    d = a.sum(dim=0)
    print("on side:", torch.cuda.current_stream(device) == side)
torch.cuda.current_stream(device).wait_stream(side)  # `d` is ready before the default reads it
print((d == 1024).all().item())

# set_stream: the same switch without a block (set the default stream back yourself)
torch.cuda.set_stream(side)
print(torch.cuda.current_stream(device) == side)
torch.cuda.set_stream(torch.cuda.default_stream(device))

# Find hidden synchronizations: "error" (2) makes each one raise, "warn" (1) warns
print("sync debug mode:", torch.cuda.get_sync_debug_mode())
torch.cuda.set_sync_debug_mode("error")
try:
    c.item()
except RuntimeError:
    print(".item() synchronizes")
torch.cuda.set_sync_debug_mode("default")

torch.cuda.synchronize(device)  # wait for every stream of the device
# The same through torch.accelerator, for any accelerator
torch.accelerator.synchronize()
print(torch.accelerator.current_stream().device.type)
torch.accelerator.set_stream(side)
print(torch.accelerator.current_stream().stream_id == side.stream_id)
torch.accelerator.set_stream(torch.cuda.default_stream(device))
