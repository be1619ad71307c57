"""get_rng_state, set_rng_state: save where the default generator is, and go back there.

Run: python rng_state.py
"""
import io

import torch

torch.manual_seed(0)
torch.rand(5)                   # some draws: the state is mid-sequence now
state = torch.get_rng_state()   # a copy of the CPU generator's state
print("state:", state.dtype, tuple(state.shape))
print("next:   ", torch.rand(3))
print("after:  ", torch.rand(3))
torch.set_rng_state(state)      # rewind to the saved point
print("rewound:", torch.rand(3))

# manual_seed(s) is a reset to one particular state
torch.manual_seed(0)
at_zero = torch.get_rng_state()
torch.rand(5)
torch.manual_seed(0)
print("same state after re-seeding:", torch.equal(torch.get_rng_state(), at_zero))

# The state is a tensor: save it with a checkpoint, restore it to resume
buffer = io.BytesIO()
torch.save({"rng": state}, buffer)
buffer.seek(0)
torch.set_rng_state(torch.load(buffer)["rng"])
print("resumed:", torch.rand(3))

# A generator of your own: get_state / set_state
gen = torch.Generator().manual_seed(1)
saved = gen.get_state()
draw = torch.randn(2, generator=gen)
gen.set_state(saved)
print("gen rewound:", torch.equal(draw, torch.randn(2, generator=gen)))

try:
    torch.set_rng_state(state.float())  # the state must stay uint8
except TypeError as error:
    print(f"TypeError: {error}")
