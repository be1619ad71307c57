"""torch.quantize_per_channel and torch.dequantize: one scale per channel.

The quantized dtypes are deprecated: the script catches the UserWarning on
purpose and prints it, then shows that torch issues it once per process.

Run: python quantize_per_channel.py
"""
import warnings

import torch

# Two rows (channels) with very different ranges
x = torch.tensor([[-0.5, 0.03, 0.26, 1.0],
                  [-50.0, 0.0, 25.0, 100.0]])
scales = torch.tensor([0.01, 1.0])  # one scale per row ...
zero_points = torch.tensor([50, 50])  # ... and one zero point per row
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    q = torch.quantize_per_channel(x, scales, zero_points, axis=0, dtype=torch.quint8)
print(f"{caught[0].category.__name__}: {str(caught[0].message).split(' Please see')[0]}")
print(q.int_repr())  # the stored integers: round(x / scale) + zero_point
restored = torch.dequantize(q)  # (Q - zero_point) * scale
print("row 0:", restored[0])  # both rows come back
print("row 1:", restored[1])

# One scale for the whole tensor has to cover 100, and row 0 is lost
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")  # the same filter as above ...
    per_tensor = torch.dequantize(torch.quantize_per_tensor(x, 1.0, 50, torch.quint8))
print("per tensor, row 0:", per_tensor[0])
print("warnings caught the second time:", len(caught))  # ... but torch warns once per process

try:  # axis=1 has 4 channels, so it needs 4 scales
    torch.quantize_per_channel(x, scales, zero_points, axis=1, dtype=torch.quint8)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
