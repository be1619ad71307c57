"""torch.quasirandom.SobolEngine: quasi-random points that fill [0, 1)^d evenly.

Run: python sobol.py
"""
import torch
from torch.quasirandom import SobolEngine

engine = SobolEngine(dimension=2)
print(engine.draw(4))  # the first point is all zeros
print(engine.draw(4))  # draw continues the sequence
print("num_generated:", engine.num_generated)
engine.reset()         # back to the start (fast_forward(n) skips n points)

# 256 points over a 4 x 4 grid of cells: how many land in each cell
def per_cell(points):
    cell = (points * 4).long()
    return torch.bincount(cell[:, 0] * 4 + cell[:, 1], minlength=16).tolist()

print("sobol:", per_cell(engine.draw(256)))
torch.manual_seed(0)
print("rand: ", per_cell(torch.rand(256, 2)))

# scramble=True randomizes the points; seed= makes that reproducible
print(SobolEngine(2, scramble=True, seed=0).draw(2, dtype=torch.float64))

# Without seed=, scrambling draws from the default generator
torch.manual_seed(0)
expected = torch.rand(1)
torch.manual_seed(0)
SobolEngine(2, scramble=True)
print("default stream untouched:", torch.equal(torch.rand(1), expected))

# The zero point maps to -inf through an inverse CDF
print("ndtri:", torch.special.ndtri(SobolEngine(2).draw(2)))

try:  # draw_base2(m) draws 2**m points and keeps the total a power of 2
    engine.draw_base2(3)
except ValueError as error:
    print(f"ValueError: {error}")
