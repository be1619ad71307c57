"""torch.sparse_coo_tensor: one (index, value) pair per stored element.

Run: python sparse_coo.py
"""
import torch

# Check indices against the size at construction. Without this (or check_invariants=
# True per call), torch does not check them, and warns about that on the first call.
torch.sparse.check_sparse_tensor_invariants.enable()

indices = torch.tensor([[0, 1, 1],   # row of each stored value
                        [2, 0, 2]])  # column of each stored value
values = torch.tensor([3.0, 4.0, 5.0])
s = torch.sparse_coo_tensor(indices, values, size=(2, 3))
print(s)
print(s.to_dense())

# Without size: the smallest size that holds the indices
print("inferred size:", torch.sparse_coo_tensor(indices, values).shape)

# The same position twice: both entries are kept, and they add up
d = torch.sparse_coo_tensor([[0, 0], [1, 1]], [1.0, 2.0], size=(2, 2))
print(d)  # nnz=2: both are stored
print("is_coalesced:", d.is_coalesced(), "to_dense:", d.to_dense().tolist())
c = d.coalesce()  # sorts the indices and sums the duplicates
print("coalesced:", c.indices().tolist(), c.values())

try:  # index 5 in a tensor of size 3
    torch.sparse_coo_tensor([[0, 5]], [1.0, 2.0], size=(3,))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
# With the checks turned off, the same call succeeds: using the result is undefined
unchecked = torch.sparse_coo_tensor([[0, 5]], [1.0, 2.0], size=(3,), check_invariants=False)
print("check_invariants=False:", unchecked.shape)
