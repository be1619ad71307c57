"""torch.empty_strided: an uninitialized tensor laid out with the strides you choose.

Run: python empty_strided.py
"""
import torch

row_major = torch.empty_strided((2, 3), (3, 1))  # the layout torch.empty gives
col_major = torch.empty_strided((2, 3), (1, 2))  # column after column
print("row_major:", row_major.stride(), row_major.is_contiguous())
print("col_major:", col_major.stride(), col_major.is_contiguous())

col_major.copy_(torch.arange(6.0).reshape(2, 3))  # fill it before reading it
print(col_major)
# The same memory read in storage order: column by column
print("memory order:", torch.as_strided(col_major, size=(6,), stride=(1,)))
print("transpose is contiguous:", col_major.t().is_contiguous())

# The *_like functions keep the strides of a dense input (memory_format=torch.preserve_format)
print("empty_like:", torch.empty_like(col_major).stride())
print("zeros_like:", torch.zeros_like(col_major).stride())
dense = torch.empty_like(col_major, memory_format=torch.contiguous_format)
print("contiguous_format:", dense.stride())
