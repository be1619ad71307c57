"""torch.is_* predicates and torch.numel: what kind of tensor is this?

Run: python predicates.py
"""
import torch

x = torch.arange(6.0).reshape(2, 3)
z = torch.tensor([1 + 2j, 3 - 1j])

print("is_tensor:", torch.is_tensor(x), torch.is_tensor(x.tolist()))
# A storage is the flat memory under a tensor; a tensor is not one
print("is_storage:", torch.is_storage(x.untyped_storage()), torch.is_storage(x))
print("is_floating_point:", torch.is_floating_point(x),
      torch.is_floating_point(torch.arange(3)), torch.is_floating_point(z))
print("is_complex:", torch.is_complex(z), torch.is_complex(x))

# conj() of a complex tensor only sets a flag on a view of the same memory
c = torch.conj(z)
print("is_conj:", torch.is_conj(z), torch.is_conj(c), torch.is_conj(c.resolve_conj()))
print("conj shares memory:", c.data_ptr() == z.data_ptr())

print("numel:", torch.numel(x), torch.numel(torch.tensor(5.0)), torch.numel(torch.empty(3, 0)))

# is_nonzero is bool() of a one-element tensor
print("is_nonzero:", torch.is_nonzero(torch.tensor([0.5])),
      torch.is_nonzero(torch.tensor([False])))
for t in (torch.tensor([1, 2]), torch.tensor([])):
    try:
        torch.is_nonzero(t)
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
print("method form:", torch.tensor([2]).is_nonzero())
