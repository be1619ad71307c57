"""Tensor.T on a tensor that is not 2-D warns; .mT transposes the last two dimensions.

Run: python transpose_T.py
"""
import warnings

import torch

x = torch.zeros(8, 3, 4)  # a batch of 8 matrices of 3 x 4
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(f"x.T: {tuple(x.T.shape)}")  # reverses all three dimensions
for warning in caught:
    # print the first sentence only; the rest names a path in torch's build tree
    first = str(warning.message).split(". ")[0]
    print(f"{warning.category.__name__}: {first}.")
print(f"x.mT: {tuple(x.mT.shape)}")
