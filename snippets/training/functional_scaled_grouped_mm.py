"""F.scaled_grouped_mm on a GPU: grouped_mm with float8 operands and one scale per row of each
operand (ScalingType.RowWise); torch has no CPU kernel for it.

Run: python functional_scaled_grouped_mm.py
Variants: cuda
"""
import torch
import torch.nn.functional as F

device = "cuda"
tokens = torch.ones(32, 16, device=device)  # (rows of all groups, K)
tokens[16:] = 2.0
experts = torch.stack([torch.eye(16), 3 * torch.eye(16)]).to(device)  # (groups, K, N)
offs = torch.tensor([16, 32], dtype=torch.int32, device=device)  # where each group ends
a = tokens.to(torch.float8_e4m3fn)
# column-major
b = experts.to(torch.float8_e4m3fn).transpose(-2, -1).contiguous().transpose(-2, -1)
scale_a = torch.ones(32, device=device)  # one scale per row of a
scale_b = torch.full((2, 16), 0.5, device=device)  # one per column of each expert
out = F.scaled_grouped_mm(a, b, scale_a, F.ScalingType.RowWise, scale_b, F.ScalingType.RowWise,
                          offs=offs)
print("scaled_grouped_mm:", out.dtype, tuple(out.shape))
print("row sums, group 0 and group 1:", out[0].float().sum().item(),
      out[16].float().sum().item())
