"""torch.Generator, default_generator, manual_seed, seed, initial_seed: where random numbers come
from.

Run: python generator.py
"""
import torch

# manual_seed seeds the default CPU generator (and every GPU's) and returns it
print("is default_generator:", torch.manual_seed(0) is torch.default_generator)
print("initial_seed:", torch.initial_seed())
print("rand:", torch.rand(3))

# A generator of your own is a separate stream with its own seed
gen = torch.Generator(device="cpu").manual_seed(0)  # manual_seed returns gen
print("gen, same seed:", torch.rand(3, generator=gen))
torch.manual_seed(1)
expected = torch.rand(2)
torch.manual_seed(1)
torch.rand(100, generator=gen)  # draws from gen only
print("default stream untouched:", torch.equal(torch.rand(2), expected))

# Unseeded, every new Generator starts from the same fixed seed
print("new Generator's seed:", torch.Generator().initial_seed())
first = torch.rand(3, generator=torch.Generator())
print("two new Generators agree:",
      torch.equal(first, torch.rand(3, generator=torch.Generator())))

# seed() picks a non-deterministic seed and returns it (not printed here)
chosen = torch.seed()
print("seed() == initial_seed():", chosen == torch.initial_seed())
before = torch.initial_seed()
chosen = gen.seed()  # the method reseeds gen only, and returns its new seed
print("gen.seed() == gen.initial_seed():", chosen == gen.initial_seed(),
      "| default generator untouched:", torch.initial_seed() == before)

# The seed goes through int(): 1.5 is seed 1, -1 is 2**64 - 1
torch.manual_seed(1.5)
print("manual_seed(1.5):", torch.initial_seed())
torch.manual_seed(-1)
print("manual_seed(-1):", torch.initial_seed(), torch.initial_seed() == 2**64 - 1)
try:
    torch.manual_seed(2**64)
except ValueError as error:
    print(f"ValueError: {error}")
