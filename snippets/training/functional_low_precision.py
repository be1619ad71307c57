"""F.grouped_mm (one matrix product per group of rows, for mixture-of-experts) and F.scaled_mm
(a float8 matrix product with the scales given as F.ScalingType recipes), on CPU.

Run: python functional_low_precision.py
"""
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
# grouped_mm: rows 0-1 go through expert 0, rows 2-3 through expert 1
tokens = torch.ones(4, 8, dtype=torch.bfloat16)  # sizes: multiples of 16 bytes
experts = torch.stack([torch.eye(8), 3 * torch.eye(8)]).to(torch.bfloat16)  # (groups, K, N)
offs = torch.tensor([2, 4], dtype=torch.int32)  # where each group ends (cumulative)
out = F.grouped_mm(tokens, experts, offs=offs)
print("grouped_mm:", out.dtype, tuple(out.shape), "row sums:", out.float().sum(dim=1).tolist())
loop = torch.cat([tokens[:2] @ experts[0], tokens[2:] @ experts[1]])
print("== one matmul per group:", torch.equal(out, loop))

# scaled_mm: float8 operands, result = (a * scale_a) @ (b * scale_b), in bfloat16 by default
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).repeat(8, 8).to(torch.float8_e4m3fn)  # (16, 16)
b = torch.eye(16).to(torch.float8_e4m3fn).t()  # the second operand column-major
print("ScalingType:", [name for name in F.ScalingType.__members__][:2], "...")
res = F.scaled_mm(a, b, torch.tensor(2.0), F.ScalingType.TensorWise,
                  torch.tensor(0.5), F.ScalingType.TensorWise)
print("scaled_mm:", res.dtype, res[:2, :4])
print("== a @ b with scales 2 and 0.5:", torch.equal(res.float(), a.float() @ b.float()))
