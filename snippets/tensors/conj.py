"""torch.conj is lazy: a view with the conjugate bit set; resolve_conj materializes the
conjugate.

Run: python conj.py
"""
import torch

z = torch.tensor([1 + 2j, 3 - 4j])
zc = torch.conj(z)
print("conj(z):", zc)
print("is_conj:", zc.is_conj(), "| shares memory with z:", zc.data_ptr() == z.data_ptr())

z[0] = 5 + 5j  # a view: the conjugate follows z
print("after z[0] = 5+5j:", zc[0])

r = torch.resolve_conj(zc)  # materialized: a new tensor, bit cleared
print("resolve_conj:", r, "| is_conj:", r.is_conj(), "| shares memory:",
      r.data_ptr() == z.data_ptr())

try:
    torch.view_as_real(zc)  # some ops refuse an unresolved conjugate
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split('.')[0]}.")
print("view_as_real after resolve_conj:", torch.view_as_real(r).tolist())

x = torch.tensor([1.0, 2.0])
print("real input returns itself:", torch.conj(x) is x)
