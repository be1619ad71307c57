"""Which attention kernels F.scaled_dot_product_attention may choose on CUDA: switches in
torch.backends.cuda for the whole process, and the fast path of nn.MultiheadAttention.

Run: python backend_sdp.py
"""
import torch
from torch.backends import cuda

print("flash, efficient, math:", cuda.flash_sdp_enabled(), cuda.mem_efficient_sdp_enabled(),
      cuda.math_sdp_enabled())
cuda.enable_flash_sdp(False)  # until enabled again: the other kernels are tried instead
cuda.enable_cudnn_sdp(False)
print("flash, cudnn:", cuda.flash_sdp_enabled(), cuda.cudnn_sdp_enabled())
cuda.enable_flash_sdp(True)
cuda.enable_cudnn_sdp(True)
cuda.enable_mem_efficient_sdp(True)
cuda.enable_math_sdp(True)

# The math kernel computes float16/bfloat16 attention in float32 unless allowed otherwise
print("reduced math:", cuda.fp16_bf16_reduction_math_sdp_allowed())
cuda.allow_fp16_bf16_reduction_math_sdp(False)
# Whether this build has FlashAttention differs between builds: print the type only
print(type(cuda.is_flash_attention_available()).__name__)

# nn.MultiheadAttention and nn.TransformerEncoderLayer: a fused path in inference
print("fastpath:", torch.backends.mha.get_fastpath_enabled())
torch.backends.mha.set_fastpath_enabled(False)
print("fastpath:", torch.backends.mha.get_fastpath_enabled())
torch.backends.mha.set_fastpath_enabled(True)
