"""torch.sparse_bsr_tensor / sparse_bsc_tensor: CSR and CSC of dense blocks.

Creating them emits a UserWarning ("... is in beta state"): the script catches it
on purpose and prints it.

Run: python sparse_bsr_bsc.py
"""
import warnings

import torch

torch.sparse.check_sparse_tensor_invariants.enable()  # validate every constructor call
blocks = torch.arange(1.0, 13.0).reshape(3, 2, 2)  # 3 stored blocks of 2 x 2

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    # A 4 x 6 matrix is 2 x 3 blocks. Block row 0 holds one block (in block column 1),
    # block row 1 holds two (in block columns 0 and 2).
    bsr = torch.sparse_bsr_tensor([0, 1, 3], [1, 0, 2], blocks, size=(4, 6))
    # The same matrix by block columns: one block in each
    bsc = torch.sparse_bsc_tensor([0, 1, 2, 3], [1, 0, 1], blocks[[1, 0, 2]], size=(4, 6))
for warning in caught:
    print(f"{warning.category.__name__}: {str(warning.message).split(' If you')[0]}")

print(bsr.to_dense())
print("values shape:", bsr.values().shape)  # (stored blocks, block rows, block columns)
print("BSC row_indices:", bsc.row_indices().tolist())
print("same matrix:", torch.equal(bsc.to_dense(), bsr.to_dense()))
# nnz (the last crow index) counts blocks, not elements
print("nnz:", bsr.crow_indices()[-1].item(), "elements stored:", bsr.values().numel())

try:  # the size must be a whole number of blocks
    torch.sparse_bsr_tensor([0, 1, 3], [1, 0, 2], blocks, size=(4, 5))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
