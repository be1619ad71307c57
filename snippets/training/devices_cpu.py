"""torch.cuda on a machine without a GPU: the questions answer False and 0, seeding is a
no-op, and nothing starts CUDA until a tensor is put on a GPU.

Run: python devices_cpu.py
"""
import torch

print("cuda available:", torch.cuda.is_available())
print("GPUs:", torch.cuda.device_count())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device)

# Seeding every GPU is safe without one: the call is queued, CUDA is not started
torch.cuda.manual_seed_all(0)
torch.cuda.manual_seed(0)  # the current GPU only
print("initialized:", torch.cuda.is_initialized())
states = torch.cuda.get_rng_state_all()  # one per GPU: save them in a checkpoint
print("RNG states:", states)
torch.cuda.set_rng_state_all(states)      # and restore them when resuming

# A device never used has allocated nothing
print("allocated:", torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated())
print("reserved:", torch.cuda.memory_reserved(), torch.cuda.max_memory_reserved())
# Whether this torch was built with CUDA differs between installs: print the type only
print("is_built() ->", type(torch.backends.cuda.is_built()).__name__)
