"""GPU memory statistics: what tensors occupy, the peak since a reset, what the caching
allocator keeps, and what the GPU has free. Totals differ between GPUs and processes: the
example prints differences and comparisons only.

Run: python cuda_memory.py
Variants: cuda
"""
import torch

device = torch.device("cuda")
torch.cuda.init()  # the allocator exists once CUDA has started
torch.cuda.reset_peak_memory_stats(device)  # the peak starts again from now
before = torch.cuda.memory_allocated(device)

x = torch.ones(1024, 1024, device=device)  # 4 MiB of float32
y = x * 2                                  # 4 MiB more
print("allocated MiB:", (torch.cuda.memory_allocated(device) - before) / 2**20)
del y  # back to PyTorch's cache, not to the GPU
print("after del MiB:", (torch.cuda.memory_allocated(device) - before) / 2**20)
print("peak MiB:", (torch.cuda.max_memory_allocated(device) - before) / 2**20)
stats = torch.cuda.memory_stats(device)  # the same numbers, and many more
print(stats["allocated_bytes.all.current"] == torch.cuda.memory_allocated(device))

reserved = torch.cuda.memory_reserved(device)
print("reserved >= allocated:", reserved >= torch.cuda.memory_allocated(device))
del x
torch.cuda.empty_cache()  # unused cached blocks go back to the driver
print("released:", torch.cuda.memory_reserved(device) < reserved)

free, total = torch.cuda.mem_get_info(device)  # the driver's view, all processes
print("free < total:", 0 < free < total)
print(type(torch.cuda.memory_summary(device)).__name__)   # a printable table
print(type(torch.cuda.memory_snapshot()).__name__)        # every segment and block
# "native" unless PYTORCH_CUDA_ALLOC_CONF says otherwise
print(torch.cuda.get_allocator_backend())

# A cap for this process: beyond it, allocations raise an out-of-memory error
torch.cuda.set_per_process_memory_fraction(0.5, device)
print("fraction:", torch.cuda.get_per_process_memory_fraction(device))
torch.cuda.set_per_process_memory_fraction(1.0, device)
torch.cuda.reset_accumulated_memory_stats(device)  # the counts since the start, to 0

# The same statistics through torch.accelerator, for any accelerator
print(torch.accelerator.memory_allocated() == torch.cuda.memory_allocated(device))
torch.accelerator.reset_peak_memory_stats()
print(torch.accelerator.max_memory_allocated() == torch.accelerator.memory_allocated())
print(torch.accelerator.memory_reserved() == torch.cuda.memory_reserved(device))
print(torch.accelerator.max_memory_reserved() >= torch.accelerator.memory_reserved())
acc_stats = torch.accelerator.memory_stats()
print(acc_stats["allocated_bytes.all.current"] == torch.accelerator.memory_allocated())
torch.accelerator.reset_accumulated_memory_stats()
torch.accelerator.empty_cache()
torch.accelerator.empty_host_cache()  # the cache of pinned CPU memory, likewise
print(torch.accelerator.get_memory_info()[1] == total)
