"""pad_sequence, pack_sequence and their inverses: a list of sequences of different lengths to a
padded tensor or a PackedSequence, and back; an LSTM on a PackedSequence.

Run: python layer_pack_sequence.py
"""
import torch
from torch import nn
from torch.nn.utils.rnn import (PackedSequence, invert_permutation, pack_sequence, pad_sequence,
                                unpack_sequence, unpad_sequence)

sequences = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0, 6.0]),
             torch.tensor([7.0, 8.0, 9.0])]
print("default:", tuple(pad_sequence(sequences).shape))  # (longest, N): time first
print(pad_sequence(sequences, batch_first=True, padding_value=-1.0))
print(pad_sequence(sequences, batch_first=True, padding_side="left"))
padded = pad_sequence(sequences, batch_first=True)
unpadded = unpad_sequence(padded, torch.tensor([2, 4, 3]), batch_first=True)
print("unpad:", [s.tolist() for s in unpadded])

try:
    pack_sequence(sequences)  # enforce_sorted=True: longest first
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split('. ')[0]}.")
packed = pack_sequence(sequences, enforce_sorted=False)
print(packed)
print("a PackedSequence:", isinstance(packed, PackedSequence))
# unsorted_indices undoes sorted_indices
print("invert_permutation:", torch.equal(invert_permutation(packed.sorted_indices),
                                         packed.unsorted_indices))
print("unpack:", [s.tolist() for s in unpack_sequence(packed)])  # the original order

torch.manual_seed(0)
lstm = nn.LSTM(input_size=1, hidden_size=3, batch_first=True)  # batch_first: only for tensors
features = pack_sequence([s.unsqueeze(-1) for s in sequences], enforce_sorted=False)  # (L_i, 1)
output, (h_n, c_n) = lstm(features)
print("output:", type(output).__name__, "h_n:", tuple(h_n.shape))
outputs = unpack_sequence(output)
print("per sequence:", [tuple(o.shape) for o in outputs])
print("h_n is each sequence's last real step:",
      all(torch.allclose(o[-1], h_n[0, i]) for i, o in enumerate(outputs)))
