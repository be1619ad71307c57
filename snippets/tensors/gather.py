"""torch.gather: out[i][j] = input[i][index[i][j]] (dim=1); the output has the index's shape.

Run: python gather.py
"""
import torch

x = torch.tensor([[10, 11, 12], [20, 21, 22]])
index = torch.tensor([[2, 0], [1, 1]])  # per row: which columns, repeats allowed
print(f"gather(x, 1, index):\n{torch.gather(x, 1, index)}")
print("gather(x, 0, [[1, 0, 1]]):", torch.gather(x, 0, torch.tensor([[1, 0, 1]])))

logits = torch.tensor([[2.0, 0.5, 0.1], [0.3, 0.2, 1.5]])
labels = torch.tensor([0, 2])  # one class per sample
picked = torch.gather(logits, 1, torch.unsqueeze(labels, 1))  # index [2] -> [2, 1]
print("score of each label:", torch.squeeze(picked, 1))

try:
    torch.gather(logits, 1, labels)  # 1-D index for a 2-D input
except RuntimeError as error:
    print(f"RuntimeError: {error}")
try:
    torch.gather(x, 1, torch.tensor([[-1]]))  # no negative indices
except RuntimeError as error:
    print(f"RuntimeError: {error}")
