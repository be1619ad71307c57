"""SobolEngine.fast_forward, MAXDIM and MAXBIT: skip points without drawing them, and the
limits of dimension and sequence length.

Run: python sobol_limits.py
"""
import torch
from torch.quasirandom import SobolEngine

print("MAXDIM:", SobolEngine.MAXDIM, "| MAXBIT:", SobolEngine.MAXBIT)
first8 = SobolEngine(dimension=3).draw(8)
engine = SobolEngine(dimension=3)
engine.fast_forward(5)  # moves on 5 points without drawing them; returns the engine
print("num_generated:", engine.num_generated)
print("fast_forward(5) then draw(3) == points 5 to 7:", engine.draw(3).equal(first8[5:]))

# One engine per worker, each starting where the previous one's share ends
shares = [SobolEngine(3).fast_forward(4 * worker).draw(4) for worker in range(2)]
print("two shares of 4 == the first 8:", torch.cat(shares).equal(first8))

# Scrambled, the shares fit together only when every engine has the same seed=
whole = SobolEngine(3, scramble=True, seed=7).draw(8)
for seed in (7, 8):
    share = SobolEngine(3, scramble=True, seed=seed).fast_forward(4).draw(4)
    print(f"scrambled, seed={seed}: second share == points 4 to 7:", share.equal(whole[4:]))

try:
    SobolEngine(dimension=SobolEngine.MAXDIM + 1)
except ValueError as error:
    print(f"ValueError: {error}")
