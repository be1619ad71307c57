"""MultiheadAttention: shapes with batch_first, the returned weights, key_padding_mask and
attn_mask (True = may not attend), a causal mask; scaled_dot_product_attention, whose boolean
mask means the opposite (True = may attend).

Run: python layer_attention.py
"""
import warnings

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
N, L, S, E, heads = 2, 3, 4, 8, 2
mha = nn.MultiheadAttention(embed_dim=E, num_heads=heads, batch_first=True)
query, memory = torch.randn(N, L, E), torch.randn(N, S, E)  # L queries, S keys and values
output, weights = mha(query, memory, memory)
print("output:", tuple(output.shape), "weights:", tuple(weights.shape))  # (N, L, E), (N, L, S)
print("weights sum to 1 over the keys:", torch.allclose(weights.sum(dim=-1), torch.ones(N, L)))
_, per_head = mha(query, memory, memory, average_attn_weights=False)
print("per head:", tuple(per_head.shape))  # (N, heads, L, S)
print("need_weights=False:", mha(query, memory, memory, need_weights=False)[1])

# key_padding_mask (N, S): True marks a padded key, which gets weight 0
padding = torch.tensor([[False, False, False, True], [False, False, True, True]])
_, weights = mha(query, memory, memory, key_padding_mask=padding)
print(weights.detach().round(decimals=2))

# attn_mask (L, S): True = this query may not attend to this key; or a float mask to add
x = torch.randn(N, L, E)
causal = nn.Transformer.generate_square_subsequent_mask(L)  # -inf above the diagonal
print(causal)
blocked = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)  # True above the diagonal
out_float, weights = mha(x, x, x, attn_mask=causal)
out_bool, _ = mha(x, x, x, attn_mask=blocked, is_causal=True)  # is_causal: a hint only
print("float and bool masks agree:", torch.allclose(out_float, out_bool, atol=1e-6))
print(weights[0].detach().round(decimals=2))  # no weight above the diagonal
try:
    mha(x, x, x, is_causal=True)
except RuntimeError as error:
    print(f"RuntimeError: {str(error).split('. ')[0]}.")
left_padded = torch.tensor([[True, False, False],  # sample 0: key 0 is padding
                            [False, False, False]])
_, weights = mha(x, x, x, key_padding_mask=left_padded, attn_mask=blocked)
print("query 0 of sample 0, no key left:", weights[0, 0].tolist())
with warnings.catch_warnings(record=True) as caught:  # a bool mask with a float mask
    warnings.simplefilter("always")
    mha(x, x, x, key_padding_mask=left_padded, attn_mask=causal)
print(f"{caught[0].category.__name__}: {caught[0].message}")

# batch_first=False (the default) reads (L, N, E): a batch-first tensor is taken as (L=N, N=L)
seq_first = nn.MultiheadAttention(E, heads)
seq_first.load_state_dict(mha.state_dict())
print("same weights, batch-first input to a seq-first layer:",
      torch.allclose(seq_first(x, x, x)[0], mha(x, x, x)[0]))

# scaled_dot_product_attention: (N, heads, L, head_dim); a bool mask marks what MAY attend
q, k, v = torch.randn(3, N, heads, L, 4).unbind(0)
reference = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print("is_causal == float mask:", torch.allclose(
    reference, F.scaled_dot_product_attention(q, k, v, attn_mask=causal), atol=1e-6))
print("is_causal == ~blocked:", torch.allclose(
    reference, F.scaled_dot_product_attention(q, k, v, attn_mask=~blocked), atol=1e-6))
print("is_causal == blocked (MultiheadAttention's meaning):", torch.allclose(
    reference, F.scaled_dot_product_attention(q, k, v, attn_mask=blocked), atol=1e-6))
by_hand = ((q @ k.transpose(-2, -1)) / 4 ** 0.5 + causal).softmax(dim=-1) @ v
print("softmax(q kᵀ / sqrt(d) + mask) v:", torch.allclose(reference, by_hand, atol=1e-6))
