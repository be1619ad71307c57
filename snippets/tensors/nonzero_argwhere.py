"""torch.nonzero / torch.argwhere: the indices of the non-zero (or True) elements.

Run: python nonzero_argwhere.py
"""
import torch

x = torch.tensor([[0, 7, 0], [3, 0, 9]])
print(f"nonzero(x): one row per element, one column per dim\n{torch.nonzero(x)}")
print(f"argwhere(x): the same\n{torch.argwhere(x)}")
rows, cols = torch.nonzero(x, as_tuple=True)  # one 1-D tensor per dim
print("as_tuple=True:", rows, cols)
print("x[nonzero(x, as_tuple=True)]:", x[torch.nonzero(x, as_tuple=True)])
try:
    x[torch.nonzero(x)]  # the 2-D result is not an index: its numbers all index dim 0
except IndexError as error:
    print(f"IndexError: {error}")

v = torch.tensor([5, 0, 8, 0])
print("1-D, default:", torch.nonzero(v).tolist())  # still 2-D: [[0], [2]]
print("1-D, as_tuple=True:", torch.nonzero(v, as_tuple=True))
print("1-D, flattened:", torch.nonzero(v).flatten())

none = torch.nonzero(x > 100)  # nothing matches: zero rows, not an error
print("no match:", none.shape, torch.nonzero(x > 100, as_tuple=True))
