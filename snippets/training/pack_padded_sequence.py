"""pack_padded_sequence / pad_packed_sequence: RNNs that skip the padding.

Run: python pack_padded_sequence.py
"""
import torch
from torch import nn
from torch.nn.utils.rnn import (pack_padded_sequence, pad_packed_sequence,
                                pad_sequence)

sequences = [torch.tensor([1, 2]), torch.tensor([3, 4, 5, 6]),
             torch.tensor([7, 8, 9])]
lengths = torch.tensor([len(s) for s in sequences])  # [2, 4, 3]: unsorted
padded = pad_sequence(sequences, batch_first=True)  # [batch, time], 0-padded
print(padded)

try:  # enforce_sorted=True by default
    pack_padded_sequence(padded, lengths, batch_first=True)
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split('. ')[0]}.")

packed = pack_padded_sequence(padded, lengths, batch_first=True,
                              enforce_sorted=False)
print(packed.data)            # step by step, longest first, no padding
print(packed.batch_sizes)     # how many sequences run at each time step
print(packed.sorted_indices)  # the batch order used inside

unpacked, unpacked_lengths = pad_packed_sequence(packed, batch_first=True)
print(unpacked)               # original order and padding restored
print(unpacked_lengths)

torch.manual_seed(0)
rnn = nn.GRU(input_size=1, hidden_size=2, batch_first=True)
features = pack_padded_sequence(padded.unsqueeze(-1).float(), lengths,
                                batch_first=True, enforce_sorted=False)
output, hidden = rnn(features)  # PackedSequence in, PackedSequence out
output, _ = pad_packed_sequence(output, batch_first=True)
print(output.shape)  # [batch, longest, hidden]
print(hidden.shape)  # [layers, batch, hidden]
# Sequence 0 ends at step 1: hidden holds its last real output
print(torch.equal(output[0, 1], hidden[0, 0]))
print(output[0, 2:].tolist())  # padding positions come back as zeros
