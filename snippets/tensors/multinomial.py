"""torch.multinomial: draw category indices from (unnormalized) weights.

Run: python multinomial.py
"""
import torch

torch.manual_seed(0)
# Weights need not sum to 1; categories 0 and 3 have probability 0
weights = torch.tensor([0.0, 10.0, 3.0, 0.0])

print(torch.multinomial(weights, 2))  # without replacement: no repeats
print(torch.multinomial(weights, 6, replacement=True))  # repeats allowed
draws = torch.multinomial(weights, 2000, replacement=True)
print(draws.bincount(minlength=4))  # roughly 10 : 3

# Without replacement, more samples than non-zero weights: no error on
# CPU, and the extra samples are categories of probability zero
print(torch.multinomial(weights, 4))

rows = torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
print(torch.multinomial(rows, 1))  # 2-D: one distribution per row

all_zero = torch.tensor([0.0, 0.0])
for bad, n in ((all_zero, 1), (weights, 5)):  # 5 > 4 categories
    try:
        torch.multinomial(bad, n)
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
# Method form; only index 1 has weight, so every draw is 1
print("method:", torch.tensor([0.0, 5.0, 0.0]).multinomial(3, replacement=True))
