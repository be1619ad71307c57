"""F.linear and F.bilinear with explicit weights; F.dropout and its training flag (True by
default, even under model.eval()), the channel and alpha dropouts; F.embedding, embedding_bag
and one_hot; pairwise_distance, cosine_similarity and pdist.

Run: python functional_linear_dropout.py
"""
import torch
import torch.nn.functional as F
from torch import nn

torch.set_printoptions(precision=4)
x = torch.tensor([[1.0, 2.0, 3.0]])  # (N=1, in_features=3)
w = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])  # (out_features=2, in_features=3)
b = torch.tensor([10.0, 0.0])
print("linear:", F.linear(x, w, b), "== x @ w.T + b:",
      torch.equal(F.linear(x, w, b), x @ w.T + b))
w2 = torch.ones(1, 3, 2)  # bilinear: (out, in1, in2), y = x1^T W x2 + b
print("bilinear:", F.bilinear(x, torch.tensor([[2.0, 1.0]]), w2))

torch.manual_seed(0)
x = torch.ones(1000)
out = F.dropout(x, p=0.5)  # training=True is the default
print("dropout: values", out.unique().tolist(), "| kept fraction near 0.5:",
      abs((out > 0).float().mean().item() - 0.5) < 0.1)
print("dropout(training=False) is the identity:",
      torch.equal(F.dropout(x, 0.5, training=False), x))


class Net(nn.Module):
    def forward(self, t):
        wrong = F.dropout(t, p=0.5)  # ignores eval(): always drops
        right = F.dropout(t, p=0.5, training=self.training)
        return wrong, right


net = Net().eval()
wrong, right = net(torch.ones(100))
print("in eval(): F.dropout(t) changed t:", not torch.equal(wrong, torch.ones(100)),
      "| F.dropout(t, training=self.training) changed t:",
      not torch.equal(right, torch.ones(100)))

# Channel dropout: whole channels are zeroed (input (N, C, L), (N, C, H, W), (N, C, D, H, W))
maps = torch.ones(1, 6, 3, 3)
kept = F.dropout2d(maps, p=0.5).sum(dim=(2, 3)).flatten()
print("dropout2d per-channel sums (0 or 9 * 2):", sorted(set(kept.tolist())) <= [0.0, 18.0])
print("dropout1d / dropout3d shapes:", tuple(F.dropout1d(torch.ones(1, 4, 5), 0.5).shape),
      tuple(F.dropout3d(torch.ones(1, 4, 2, 2, 2), 0.5).shape))
# alpha_dropout (for selu networks) defaults to training=False
print("alpha_dropout default is the identity:", torch.equal(F.alpha_dropout(x, 0.5), x))
a = F.alpha_dropout(torch.zeros(10000), 0.2, training=True)
print("alpha_dropout training keeps mean near 0:", abs(a.mean().item()) < 0.1)
fa = F.feature_alpha_dropout(torch.zeros(1, 8, 4), 0.5, training=True)
print("feature_alpha_dropout: one value per channel:", bool((fa == fa[:, :, :1]).all()))

# embedding: row lookup in a weight matrix (num_embeddings, embedding_dim)
weight = torch.arange(12.0).reshape(4, 3)
ids = torch.tensor([[0, 2], [3, 3]])
print("embedding:", F.embedding(ids, weight), sep="\n")
print("embedding == weight[ids]:", torch.equal(F.embedding(ids, weight), weight[ids]))
flat = torch.tensor([0, 1, 2, 3])
offsets = torch.tensor([0, 1])  # bags [0] and [1, 2, 3]
print("embedding_bag mean:", F.embedding_bag(flat, weight, offsets))
print("embedding_bag sum: ", F.embedding_bag(flat, weight, offsets, mode="sum"))

labels = torch.tensor([0, 2, 1])
print("one_hot:", F.one_hot(labels), sep="\n")  # int64, classes = max + 1
print("one_hot num_classes=4:", F.one_hot(labels, num_classes=4).tolist())
print("one_hot dtype:", F.one_hot(labels).dtype, "-> .float() for arithmetic")

u = torch.tensor([[1.0, 0.0], [3.0, 4.0]])
v = torch.tensor([[0.0, 1.0], [0.0, 0.0]])
print("pairwise_distance (row by row):", F.pairwise_distance(u, v))  # adds eps=1e-6
print("pairwise_distance p=1:", F.pairwise_distance(u, v, p=1.0, eps=0.0))
cos = F.cosine_similarity(u, torch.tensor([[2.0, 0.0], [4.0, -3.0]]), dim=1)
print("cosine_similarity dim=1:", [round(c, 4) + 0.0 for c in cos.tolist()])
points = torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])
print("pdist (upper triangle of cdist):", F.pdist(points), torch.cdist(points, points))
