"""Splitting, moving dimensions and reshaping as tensor methods: x.movedim(0, -1) is
torch.movedim(x, 0, -1); x.t_() and x.unsqueeze_(0) change x's own shape.

Run: python methods_shape.py
"""
import torch

x = torch.arange(6).reshape(2, 3)
print("chunk:", [c.tolist() for c in x.chunk(2, dim=1)])
print("tensor_split:", [c.tolist() for c in x.tensor_split([1], dim=1)])
print("hsplit:", [c.shape for c in x.hsplit(3)], "| vsplit:", [c.tolist() for c in x.vsplit(2)])
print("dsplit:", [c.shape for c in torch.zeros(1, 1, 4).dsplit([1])])
print("unbind:", [r.tolist() for r in x.unbind(1)])
print("select:", x.select(1, 2).tolist(), "| narrow:", x.narrow(1, 1, 2).tolist())
n = x.narrow_copy(1, 0, 1)  # a copy, not a view
n[0, 0] = 99
print("narrow_copy leaves x alone:", x[0, 0].item())

c = torch.zeros(2, 3, 4)
print("movedim:", c.movedim(0, -1).shape, "| moveaxis:", c.moveaxis(-1, 0).shape)
print("swapaxes:", c.swapaxes(0, 2).shape, "| swapdims:", c.swapdims(1, 2).shape)
z = torch.tensor([[1 + 1j, 2j]])
print("adjoint:", z.adjoint().tolist())  # conjugate transpose, a view

print("tile:", torch.tensor([1, 2]).tile(2).tolist(), torch.tensor([1, 2]).tile(2, 1).tolist())
print("repeat_interleave:", torch.tensor([1, 2]).repeat_interleave(2).tolist(),
      torch.tensor([1, 2]).repeat_interleave(torch.tensor([1, 3])).tolist())
print("expand_as:", torch.tensor([[1], [2]]).expand_as(x).tolist())
w = torch.arange(5.0)
print("as_strided windows:", w.as_strided((3, 3), (1, 1)).tolist())

# In place: the same tensor object gets a new shape (or strides)
t = torch.arange(6.0).reshape(2, 3)
print("t_:", t.t_().shape, "| transpose_:", t.transpose_(0, 1).shape)
print("unsqueeze_:", t.unsqueeze_(0).shape, "| squeeze_:", t.squeeze_(0).shape)
print("swapaxes_:", t.swapaxes_(0, 1).shape, "| swapdims_:", t.swapdims_(0, 1).shape)
t.as_strided_((3,), (2,))  # t now reads every other element
print("as_strided_:", t.tolist(), "| shape:", t.shape)
