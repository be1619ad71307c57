"""squeeze removes size-1 dims; unsqueeze inserts one.

Run: python squeeze_unsqueeze.py
"""
import torch

x = torch.zeros(1, 2, 1, 3)
print(x.squeeze().shape)        # every size-1 dim
print(x.squeeze(0).shape)       # only dim 0
print(x.squeeze((0, 2)).shape)  # several dims at once (torch 2.0+)
print(x.squeeze(1).shape)       # dim 1 has size 2: silently left alone

v = torch.tensor([1, 2, 3])     # shape [3]
print(v.unsqueeze(0))           # [1, 3]: a row
print(v.unsqueeze(1))           # [3, 1]: a column
print(v.unsqueeze(-1).shape)    # at the end
print(v[None, :, None].shape)   # indexing with None does the same

batch = torch.zeros(1, 5)       # a batch that happens to hold one sample
print(batch.squeeze().shape, "<- the batch dim is gone too")
