"""torch.bernoulli, torch.normal, torch.poisson: one draw per element of a parameter tensor.

Run: python bernoulli_normal_poisson.py
"""
import torch

torch.manual_seed(0)
p = torch.tensor([0.0, 0.2, 0.8, 1.0])
print("bernoulli(p):", torch.bernoulli(p))  # 1 with probability p[i]
print("bernoulli(x, 0.5):", torch.bernoulli(torch.zeros(6), 0.5))  # x: shape only
print(f"mean of 10000 draws at p=0.3: {torch.bernoulli(torch.full((10000,), 0.3)).mean():.3f}")

# normal: a mean and a standard deviation (not a variance) per element
mean = torch.tensor([0.0, 10.0, 100.0])
std = torch.tensor([1.0, 1.0, 0.0])
print("normal(mean, std):", torch.normal(mean, std))
print("normal(mean, 0.5):", torch.normal(mean, 0.5))
print("normal(2.0, 3.0, size):", torch.normal(2.0, 3.0, size=(2, 3)))
many = torch.normal(5.0, 2.0, size=(10000,))
print(f"10000 draws: mean {many.mean():.2f}, std {many.std():.2f}")

# poisson: counts, returned as floats, one per rate
print("poisson(rates):", torch.poisson(torch.tensor([0.5, 5.0, 50.0])))
counts = torch.poisson(torch.full((10000,), 4.0))
print(f"rate 4: mean {counts.mean():.2f}, variance {counts.var():.2f}")

for bad in (lambda: torch.bernoulli(torch.tensor([1.5])),
            lambda: torch.normal(torch.zeros(2), torch.tensor([1.0, -1.0])),
            lambda: torch.normal(torch.zeros(2, 3), torch.ones(6))):
    try:
        bad()
    except RuntimeError as error:
        print(f"RuntimeError: {error}")

# The method form draws with the tensor's values as probabilities; 0 and 1 give a fixed draw
print("bernoulli() method:", torch.tensor([0.0, 1.0, 1.0]).bernoulli())
