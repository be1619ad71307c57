"""movedim moves some dims and keeps the others in order; swapaxes swaps two; t and adjoint
transpose matrices.

Run: python movedim_swapaxes.py
"""
import torch

x = torch.zeros(2, 3, 4, 5)  # N, C, H, W
print("movedim(x, 1, -1):", tuple(torch.movedim(x, 1, -1).shape))  # C to the end: N, H, W, C
# every dim listed
print("permute(x, (0, 2, 3, 1)):", tuple(torch.permute(x, (0, 2, 3, 1)).shape))
print("moveaxis, an alias:", tuple(torch.moveaxis(x, 1, -1).shape))
print("movedim, two dims:", tuple(torch.movedim(x, (0, 1), (-1, -2)).shape))  # H, W, C, N

print("swapaxes(x, 1, 3):", tuple(torch.swapaxes(x, 1, 3).shape))  # transpose under NumPy's name
print("swapdims(x, 1, 3):", tuple(torch.swapdims(x, 1, 3).shape))
print("transpose(x, 1, 3):", tuple(torch.transpose(x, 1, 3).shape))
print("movedim returns a view:", torch.movedim(x, 1, -1).data_ptr() == x.data_ptr())

m = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(f"t(m):\n{torch.t(m)}")
print("t of 1-D is unchanged:", torch.t(torch.tensor([1, 2, 3])))  # not a column
try:
    torch.t(x)  # t is for 0-, 1- and 2-D tensors
except RuntimeError as error:
    print(f"RuntimeError: {error}")

c = torch.tensor([[1 + 2j, 3 - 1j], [0 + 1j, 2 + 0j]])
print(f"adjoint(c), conjugate transpose:\n{torch.adjoint(c)}")
print("adjoint of a batch:", tuple(torch.adjoint(torch.zeros(8, 3, 4)).shape))  # last two dims
