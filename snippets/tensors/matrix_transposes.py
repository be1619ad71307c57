"""Tensor.T, .mT, .H, .mH: transposes as properties, conjugated for .H and .mH.

Run: python matrix_transposes.py
"""
import warnings

import torch

m = torch.arange(6).reshape(2, 3)
print(m.T)  # 2-D: the matrix transpose, a view
print(m.mT.shape, m.T.data_ptr() == m.data_ptr())

z = torch.tensor([[1 + 2j, 3 - 1j], [0j, 1j]])
print(z.H)  # conjugate transpose: z.T.conj()
print(torch.equal(z.mH, z.mT.conj()), z.H.is_conj())  # lazy: only a flag is set

b = torch.zeros(8, 3, 4)  # a batch of 8 matrices of 3 x 4
print("b.mT:", tuple(b.mT.shape), "b.mH:", tuple(b.mH.shape))  # the last two dimensions
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("b.T:", tuple(b.T.shape))  # reverses all three dimensions
for warning in caught:
    # print the first sentence only; the rest names a path in torch's build tree
    first = str(warning.message).split(". ")[0]
    print(f"{warning.category.__name__}: {first}.")
try:
    b.H
except RuntimeError as exc:
    print(f"b.H: RuntimeError: {exc}")
