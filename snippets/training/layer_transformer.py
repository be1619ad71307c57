"""TransformerEncoderLayer and TransformerEncoder: batch_first, src_key_padding_mask, a causal
mask, norm_first; num_layers copies of one layer, identical at the start. TransformerDecoder and
nn.Transformer: the output has the target's shape.

Run: python layer_transformer.py
"""
import warnings

import torch
from torch import nn

torch.manual_seed(0)
E, heads = 8, 2
layer = nn.TransformerEncoderLayer(d_model=E, nhead=heads, dim_feedforward=16, dropout=0.0,
                                   batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=3)  # three deep copies of layer
print("parameters: layer", sum(p.numel() for p in layer.parameters()),
      "encoder", sum(p.numel() for p in encoder.parameters()))
print("layer is encoder.layers[0]:", layer is encoder.layers[0])
print("copies start equal:", torch.equal(encoder.layers[0].linear1.weight,
                                         encoder.layers[1].linear1.weight))

src = torch.randn(2, 5, E)  # batch_first: (N, S, E)
padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])  # (N, S), True = padding
out = encoder(src, src_key_padding_mask=padding)
print("output:", tuple(out.shape))
changed = src.clone()
changed[1, 3:] = 100.0  # change only the padding
print("padding does not reach real positions:", torch.allclose(
    encoder(changed, src_key_padding_mask=padding)[1, :3], out[1, :3], atol=1e-5))
print("padded positions still have values:", out[1, 3:].abs().sum().item() > 0)

causal = nn.Transformer.generate_square_subsequent_mask(5)  # position i sees 0 … i
print("causal:", tuple(encoder(src, mask=causal, is_causal=True).shape))

# In eval mode without grad, the encoder may take a faster path (nested tensors)
encoder.eval()
with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fast = encoder(src, src_key_padding_mask=padding)
print(f"{caught[0].category.__name__}: {str(caught[0].message).split('. ')[0]}.")
print("fast path, padded positions:", fast[1, 3:].abs().sum().item())
print("real positions agree:", torch.allclose(fast[1, :3], out[1, :3], atol=1e-5))

with warnings.catch_warnings(record=True) as caught:  # norm_first: LayerNorm before each block
    warnings.simplefilter("always")
    nn.TransformerEncoder(nn.TransformerEncoderLayer(E, heads, norm_first=True), num_layers=2)
print(f"{caught[0].category.__name__}: {caught[0].message}")
pre_norm = nn.TransformerEncoder(
    nn.TransformerEncoderLayer(E, heads, 16, 0.0, batch_first=True, norm_first=True),
    num_layers=2, norm=nn.LayerNorm(E), enable_nested_tensor=False)  # a final norm
print("pre-norm:", tuple(pre_norm(src).shape))

# Decoder: tgt attends to itself (causally) and to memory, the encoder's output
decoder_layer = nn.TransformerDecoderLayer(E, heads, 16, 0.0, batch_first=True)
decoder = nn.TransformerDecoder(decoder_layer, num_layers=2)
tgt = torch.randn(2, 4, E)  # (N, T, E)
tgt_mask = nn.Transformer.generate_square_subsequent_mask(4)
print("decoder:", tuple(decoder(tgt, out, tgt_mask=tgt_mask, tgt_is_causal=True,
                                memory_key_padding_mask=padding).shape))  # (N, T, E)

model = nn.Transformer(d_model=E, nhead=heads, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=16, dropout=0.0, batch_first=True)
print("Transformer:", tuple(model(src, tgt, tgt_mask=tgt_mask).shape))
print("final norms:", type(model.encoder.norm).__name__, type(model.decoder.norm).__name__)
