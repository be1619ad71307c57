"""torch.nn.attention.sdpa_kernel: allow only some kernels (SDPBackend) for
F.scaled_dot_product_attention inside a block, and what the CPU does with each choice.

Run: python attention_sdpa_kernel.py
"""
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

print("backends:", list(SDPBackend.__members__))
torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 8, 4) for _ in range(3))  # (batch, heads, sequence, head dim)
default = F.scaled_dot_product_attention(q, k, v)  # torch picks the kernel

with sdpa_kernel(SDPBackend.MATH):  # only the plain reference kernel
    math = F.scaled_dot_product_attention(q, k, v)
print("MATH close to the default:", torch.allclose(math, default, atol=1e-6))

# A list allows several; the previous choice is back after the block
with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
    both = F.scaled_dot_product_attention(q, k, v, is_causal=True)
causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("FLASH or MATH, causal, close to the default:", torch.allclose(both, causal, atol=1e-6))

for backend in (SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION):
    try:
        with sdpa_kernel(backend):  # the only one allowed
            F.scaled_dot_product_attention(q, k, v)
        print(f"{backend.name} alone on the CPU: runs")
    except RuntimeError as error:
        print(f"{backend.name} alone on the CPU: {type(error).__name__}: "
              f"{str(error).splitlines()[0]}")
