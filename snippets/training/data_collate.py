"""default_collate and collate_fn: how a list of samples becomes a batch, and padding
sequences of different lengths.

Run: python data_collate.py
"""
import numpy as np
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, default_collate, default_convert

# default_collate stacks field by field: tuple samples give a list of batched fields
print(default_collate([(torch.tensor([1, 2]), 0), (torch.tensor([3, 4]), 1)]))
# dicts keep their keys; Python floats become float64, strings stay a list
batch = default_collate([{"x": 0.5, "name": "a"}, {"x": 1.5, "name": "b"}])
print(batch["x"], batch["name"])

# Sequences of different lengths cannot be stacked
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])]
samples = [(s, len(s)) for s in seqs]
try:
    next(iter(DataLoader(samples, batch_size=3)))
except RuntimeError as error:
    print(f"RuntimeError: {error}")


# Pad the sequences to the longest one in the batch; keep the true lengths
def pad_collate(batch):
    seqs, lengths = zip(*batch)
    return pad_sequence(seqs, batch_first=True, padding_value=0), torch.tensor(lengths)


padded, lengths = next(iter(DataLoader(samples, batch_size=3, collate_fn=pad_collate)))
print(padded)
print("lengths:", lengths.tolist())

# batch_size=None: no batching; default_convert only turns NumPy arrays into tensors
print(default_convert([np.array([1.0, 2.0]), 3]))
print(next(iter(DataLoader([np.array([1.0, 2.0])], batch_size=None))))
