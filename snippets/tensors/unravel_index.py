"""torch.unravel_index: turn flat indices (argmax of the whole tensor) into per-dim coordinates.

Run: python unravel_index.py
"""
import torch

scores = torch.tensor([[3.0, 9.0, 1.0], [7.0, 2.0, 8.0]])
flat = torch.argmax(scores)  # no dim: an index into the flattened tensor
print("argmax:", flat)
row, col = torch.unravel_index(flat, scores.shape)
print("unravel_index:", row, col, "-> value", scores[row, col])

flat3 = torch.topk(torch.flatten(scores), k=3).indices  # the 3 largest, anywhere
rows, cols = torch.unravel_index(flat3, scores.shape)
print("top 3 rows:", rows, "cols:", cols)
print("as (row, col) pairs:", torch.stack([rows, cols], dim=1).tolist())

grid = torch.reshape(torch.arange(24), (2, 3, 4))
print("3-D:", torch.unravel_index(torch.tensor(17), grid.shape), grid[1, 1, 1])

# indices must lie in [0, numel - 1]; torch does not check that
print("6 in a (2, 3) shape:", torch.unravel_index(torch.tensor(6), (2, 3)))
print("-1 in a (2, 3) shape:", torch.unravel_index(torch.tensor(-1), (2, 3)))
