"""RNN, LSTM, GRU: input (L, N, H_in), or (N, L, H_in) with batch_first; output holds the last
layer at every step, h_n (and c_n) every layer at the last step, batch second in any case;
where a bidirectional layer puts its two directions; the cells run one step.

Run: python layer_rnn.py
"""
import warnings

import torch
from torch import nn

torch.manual_seed(0)
N, L, H_in, H = 3, 5, 4, 6
x = torch.randn(N, L, H_in)  # batch_first=True: (N, L, H_in)

lstm = nn.LSTM(input_size=H_in, hidden_size=H, num_layers=2, batch_first=True,
               bidirectional=True)
output, (h_n, c_n) = lstm(x)
print("output:", tuple(output.shape))  # (N, L, 2 * H): both directions, last layer
# (2 * num_layers, N, H): no batch_first
print("h_n:", tuple(h_n.shape), "c_n:", tuple(c_n.shape))
# h_n[-2] is the last layer forward, h_n[-1] backward (its last step is t = 0)
print("forward half at t = L-1 == h_n[-2]:", torch.allclose(output[:, -1, :H], h_n[-2]))
print("backward half at t = 0 == h_n[-1]:", torch.allclose(output[:, 0, H:], h_n[-1]))
# 4 gates
print("layer 0 weights:", [(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:2])

gru = nn.GRU(H_in, H)  # batch_first=False (the default): (L, N, H_in)
output, h_n = gru(x.transpose(0, 1))
print("GRU output:", tuple(output.shape), "h_n:", tuple(h_n.shape),
      "last step == h_n:", torch.allclose(output[-1], h_n[0]))

rnn = nn.RNN(H_in, H, nonlinearity="relu", batch_first=True)
output, h_n = rnn(x, torch.zeros(1, N, H))  # h_0: (num_layers, N, H), even with batch_first
print("RNN with h_0:", tuple(output.shape), tuple(h_n.shape))
try:
    rnn(x, torch.zeros(N, 1, H))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
print("unbatched (L, H_in):", tuple(nn.GRU(H_in, H)(torch.randn(L, H_in))[0].shape))

with warnings.catch_warnings(record=True) as caught:  # dropout acts between layers only
    warnings.simplefilter("always")
    nn.LSTM(H_in, H, dropout=0.2)
print(f"{caught[0].category.__name__}: {caught[0].message}")

# The cells compute one step for a batch: (N, H_in) -> (N, H)
cell = nn.GRUCell(H_in, H)
layer = nn.GRU(H_in, H, batch_first=True)
with torch.no_grad():  # give the cell the layer's weights
    for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
        getattr(cell, name).copy_(getattr(layer, f"{name}_l0"))
h = torch.zeros(N, H)
steps = []
for t in range(L):
    h = cell(x[:, t], h)
    steps.append(h)
print("GRUCell loop == GRU:", torch.allclose(torch.stack(steps, dim=1), layer(x)[0], atol=1e-6))
h, c = nn.LSTMCell(H_in, H)(x[:, 0])  # no state given: zeros
print("LSTMCell:", tuple(h.shape), tuple(c.shape),
      "RNNCell:", tuple(nn.RNNCell(H_in, H)(x[:, 0]).shape))
