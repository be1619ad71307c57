"""nn.LinearCrossEntropyLoss and F.linear_cross_entropy: the output projection and the
cross-entropy in one call; LinearCrossEntropyOptions computes it in chunks of the batch.

Run: python loss_linear_cross_entropy.py
"""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
hidden = torch.randn(6, 4)  # N=6 feature vectors of size 4
target = torch.tensor([1, 3, 5, 7, 9, 0])  # 10 classes
head = nn.Linear(4, 10, bias=False)  # the usual output layer

# Two steps, with the [N, C] logits in memory ...
two_steps = F.cross_entropy(head(hidden), target)
# ... and one call, with the weight of the output layer
fused = F.linear_cross_entropy(hidden, head.weight, target)
print("equal:", torch.allclose(two_steps, fused), round(fused.item(), 4))

# Chunked: the logits of at most 2 samples exist at a time
options = nn.LinearCrossEntropyOptions(batch_chunk_size=2)
chunked = F.linear_cross_entropy(hidden, head.weight, target, options=options)
print("chunked equal:", torch.allclose(chunked, two_steps))

# The module holds the output layer itself, as .linear
criterion = nn.LinearCrossEntropyLoss(4, 10, options=nn.LinearCrossEntropyOptions())
print(criterion.linear)
with torch.no_grad():
    criterion.linear.weight.copy_(head.weight)
features = hidden.clone().requires_grad_()
loss = criterion(features, target)
loss.backward()
reference = hidden.clone().requires_grad_()
F.cross_entropy(head(reference), target).backward()
print("module equal:", torch.allclose(loss, two_steps),
      "input gradients equal:", torch.allclose(features.grad, reference.grad))
