"""torch.sparse_csr_tensor / sparse_csc_tensor: rows or columns, compressed.

Creating them emits a UserWarning ("... is in beta state"): the script catches it
on purpose and prints it.

Run: python sparse_csr_csc.py
"""
import warnings

import torch

torch.sparse.check_sparse_tensor_invariants.enable()  # validate every constructor call
dense = torch.tensor([[0.0, 0.0, 3.0],
                      [4.0, 0.0, 5.0]])

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    # Row i holds values[crow_indices[i]:crow_indices[i + 1]], in columns col_indices[...]
    csr = torch.sparse_csr_tensor([0, 1, 3], [2, 0, 2], [3.0, 4.0, 5.0], size=(2, 3))
    # Column j holds values[ccol_indices[j]:ccol_indices[j + 1]], in rows row_indices[...]
    csc = torch.sparse_csc_tensor([0, 1, 1, 3], [1, 0, 1], [4.0, 3.0, 5.0], size=(2, 3))
for warning in caught:
    print(f"{warning.category.__name__}: {str(warning.message).split(' If you')[0]}")

print("CSR crow_indices:", csr.crow_indices().tolist(), "col_indices:",
      csr.col_indices().tolist())
print("CSR values:", csr.values())
print("CSC ccol_indices:", csc.ccol_indices().tolist(), "row_indices:",
      csc.row_indices().tolist())
print("CSC values:", csc.values())  # the same numbers, in column order
print("both equal dense:", torch.equal(csr.to_dense(), dense),
      torch.equal(csc.to_dense(), dense))
print("from dense:", dense.to_sparse_csr().crow_indices().tolist())

try:  # the last crow index must be the number of stored values
    torch.sparse_csr_tensor([0, 1, 2], [2, 0, 2], [3.0, 4.0, 5.0], size=(2, 3))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
