"""flex_attention: attention whose mask is a Python function (mask_mod), turned into a
BlockMask by create_block_mask; causal equals F.scaled_dot_product_attention(is_causal=True);
masks combine with and_masks / or_masks; score_mod edits each score.

Run: python attention_flex.py
"""
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import (
    AuxOutput,
    AuxRequest,
    BlockMask,
    and_masks,
    create_block_mask,
    create_mask,
    flex_attention,
    noop_mask,
    or_masks,
)

# Called without torch.compile, flex_attention warns and runs an unfused reference; compiled
# with the default backend (inductor) it is one fused kernel. backend="eager" only keeps this
# example fast on a CPU.
flex = torch.compile(flex_attention, backend="eager")


def causal(b, h, q_idx, kv_idx):  # True: query q_idx may attend to key kv_idx
    return q_idx >= kv_idx


def window(b, h, q_idx, kv_idx):  # at most 2 positions back
    return q_idx - kv_idx <= 2


print("dense mask (create_mask):\n",
      create_mask(and_masks(causal, window), 1, 1, 5, 5, device="cpu").int())

torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 8, 4) for _ in range(3))  # (batch, heads, sequence, head dim)
block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=8, KV_LEN=8, device="cpu")
# B=None, H=None: shared by every batch and head
print("a BlockMask:", isinstance(block_mask, BlockMask), "shape:", block_mask.shape)
out = flex(q, k, v, block_mask=block_mask)
sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("causal flex close to SDPA is_causal:", torch.allclose(out, sdpa, atol=1e-5))

both = create_block_mask(and_masks(causal, window), None, None, 8, 8, device="cpu")
dense = create_mask(and_masks(causal, window), None, None, 8, 8, device="cpu")
print("and_masks close to SDPA with that bool mask:",
      torch.allclose(flex(q, k, v, block_mask=both),
                     F.scaled_dot_product_attention(q, k, v, attn_mask=dense), atol=1e-5))
everything = create_mask(or_masks(causal, noop_mask), None, None, 8, 8, device="cpu")
print("or_masks(causal, noop_mask) allows all:", bool(everything.all()))


def bias(score, b, h, q_idx, kv_idx):  # score_mod: add a bias by distance
    return score - (q_idx - kv_idx).abs() * 0.5


distance = (torch.arange(8)[:, None] - torch.arange(8)[None, :]).abs() * 0.5
print("score_mod close to SDPA with a float mask:",
      torch.allclose(flex(q, k, v, score_mod=bias),
                     F.scaled_dot_product_attention(q, k, v, attn_mask=-distance), atol=1e-5))

out, aux = flex(q, k, v, block_mask=block_mask, return_aux=AuxRequest(lse=True))
scores = (q @ k.transpose(-2, -1) / 2.0).masked_fill(
    ~create_mask(causal, None, None, 8, 8, device="cpu"), float("-inf"))
print("aux is an AuxOutput:", isinstance(aux, AuxOutput))
print("lse close to logsumexp of the masked scores:",
      torch.allclose(aux.lse, scores.logsumexp(-1), atol=1e-5))
