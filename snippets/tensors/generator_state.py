"""Generator.clone_state(): a new generator that continues the same stream from the current
point, then moves on by itself.

Run: python generator_state.py
"""
import torch

gen = torch.Generator().manual_seed(0)
torch.rand(5, generator=gen)  # move the stream on a little
copy = gen.clone_state()  # a new Generator at the same point of the same stream
print("clone is a new object:", copy is not gen, type(copy).__name__)
a = torch.rand(3, generator=gen)
b = torch.rand(3, generator=copy)
print("same next numbers:", torch.equal(a, b), a)
torch.rand(100, generator=gen)
after = torch.rand(3, generator=copy), torch.rand(3, generator=gen)
print("independent afterwards:", torch.equal(*after))

# get_state() copies the state into a tensor; clone_state() keeps it in a Generator
saved = gen.get_state()
rewound = torch.Generator().set_state(saved)  # set_state returns the generator
print("set_state(get_state()) agrees with clone_state():",
      torch.equal(torch.rand(3, generator=rewound), torch.rand(3, generator=gen.clone_state())))

try:
    gen.get_offset()  # offsets belong to the Philox generators of GPUs
except RuntimeError as error:
    print(f"RuntimeError: {error}")
