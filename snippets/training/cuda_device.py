"""Which GPU, and its random numbers: device index, name, compute capability, properties,
and the per-GPU generators. The answers differ between GPUs: the example prints their types
and checks.

Run: python cuda_device.py
Variants: cuda
"""
import torch

print(torch.cuda.is_available(), torch.cuda.device_count() >= 1)
torch.cuda.init()  # CUDA starts at the first GPU tensor anyway; init() starts it now
print("initialized:", torch.cuda.is_initialized())
torch.cuda.set_device(0)
print("current:", torch.cuda.current_device())
with torch.cuda.device(0):  # a block on another GPU; 0 is the only one certain to exist
    print(torch.ones(1, device="cuda").device)

name = torch.cuda.get_device_name(0)
major, minor = torch.cuda.get_device_capability(0)  # (8, 0) is an A100, (9, 0) an H100
props = torch.cuda.get_device_properties(0)
print(type(name).__name__, type(major).__name__, type(minor).__name__)
print(props.name == name, (props.major, props.minor) == (major, minor), props.total_memory > 0)
print("bf16, tf32:", type(torch.cuda.is_bf16_supported()).__name__,
      type(torch.cuda.is_tf32_supported()).__name__)
t = torch.ones(1, device="cuda:0")
with torch.cuda.device_of(t):  # the GPU a tensor is on, as the current device
    print("device_of:", torch.cuda.current_device())

# The same questions through torch.accelerator
print(torch.accelerator.current_accelerator(), torch.accelerator.current_device_index())
torch.accelerator.set_device_index(0)
with torch.accelerator.device_index(0):
    print(torch.accelerator.device_count() == torch.cuda.device_count())
print(type(torch.accelerator.get_device_capability()).__name__)  # a dict, keys per backend

# Each GPU has its own generator; torch.cuda.manual_seed seeds the current one
torch.cuda.manual_seed(0)
first = torch.rand(3, device="cuda")
state = torch.cuda.get_rng_state()
second = torch.rand(3, device="cuda")
torch.cuda.set_rng_state(state)  # back to the state before `second`
print(torch.equal(torch.rand(3, device="cuda"), second), torch.cuda.initial_seed())
torch.cuda.manual_seed(0)
states = torch.cuda.get_rng_state_all()  # one state per GPU
print(torch.equal(torch.rand(3, device="cuda"), first))
torch.cuda.seed_all()  # a fresh random seed on every GPU (seed(): the current one)
torch.cuda.seed()
torch.cuda.set_rng_state_all(states)
print(torch.equal(torch.rand(3, device="cuda"), first))
