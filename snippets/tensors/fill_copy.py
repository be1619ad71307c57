"""copy_, zero_, fill_, masked_fill and masked_fill_: writing into an existing tensor.

Run: python fill_copy.py
"""
import torch

x = torch.zeros(2, 3)
out = x.copy_(torch.tensor([1, 2, 3]))  # broadcast over the rows, int64 converted to float32
print(x)
print(out is x)  # in-place methods (trailing _) return the tensor itself

x[0].fill_(-1)  # x[0] is a view: the write lands in x
print(x)
x[:, 1].zero_()
print(x)

scores = torch.tensor([[0.5, 1.5, -2.0], [3.0, -0.5, 1.0]])
mask = scores < 0
masked = scores.masked_fill(mask, 0.0)  # a new tensor; scores is unchanged
print(masked)
print("scores unchanged:", scores[0, 2].item())
# typical use: hide positions before a softmax
attn = scores.masked_fill(~torch.tensor([True, True, False]), float("-inf"))
print(attn.softmax(dim=-1))
scores.masked_fill_(mask, 0.0)  # in place
print(torch.equal(scores, masked))
try:
    x.copy_(torch.ones(2, 2))  # src must broadcast to x's shape
except RuntimeError as exc:
    print(f"RuntimeError: {exc}")
