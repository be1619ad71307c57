"""The other losses of torch.nn, each once on tiny inputs, module and F.* function side by side.

Run: python loss_others.py
"""
import torch
import torch.nn.functional as F
from torch import nn


def show(name, module, function, *args, **kwargs):
    value = module(*args)
    same = torch.allclose(value, function(*args, **kwargs))
    print(f"{name}: {value.item():.4f}, F form equal: {same}")


# Regression on counts: the input is the log of the predicted rate
log_rate = torch.tensor([0.0, 1.0, 2.0])
counts = torch.tensor([1.0, 3.0, 6.0])
show("PoissonNLLLoss", nn.PoissonNLLLoss(), F.poisson_nll_loss, log_rate, counts)

# Regression with a predicted variance (uncertainty) per output
mean, var = torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 0.5, 2.0])
value = torch.tensor([0.5, 1.0, 3.0])
show("GaussianNLLLoss", nn.GaussianNLLLoss(), F.gaussian_nll_loss, mean, value, var)

# Ranking: y = 1 means the first score should be higher, -1 the second
first, second = torch.tensor([0.8, 0.2, 0.5]), torch.tensor([0.3, 0.6, 0.5])
order = torch.tensor([1.0, 1.0, -1.0])
show("MarginRankingLoss", nn.MarginRankingLoss(margin=0.1), F.margin_ranking_loss,
     first, second, order, margin=0.1)

# Binary classification with labels 1 / -1 (the logistic loss)
scores, signs = torch.tensor([2.0, -1.0, 0.5]), torch.tensor([1.0, -1.0, -1.0])
show("SoftMarginLoss", nn.SoftMarginLoss(), F.soft_margin_loss, scores, signs)

# Multi-class hinge loss on logits [N, C] and class indices
logits, classes = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]]), torch.tensor([0, 1])
show("MultiMarginLoss", nn.MultiMarginLoss(), F.multi_margin_loss, logits, classes)

# Multi-label: several classes per sample. Soft margin takes 0/1 targets ...
scores = torch.tensor([[1.0, 0.8, -0.5]])
show("MultiLabelSoftMarginLoss", nn.MultiLabelSoftMarginLoss(), F.multilabel_soft_margin_loss,
     scores, torch.tensor([[1.0, 0.0, 1.0]]))
# ... margin takes the class indices, ended by -1
show("MultiLabelMarginLoss", nn.MultiLabelMarginLoss(), F.multilabel_margin_loss,
     scores, torch.tensor([[0, 2, -1]]))

# Similarity learning: the input is a distance, y = 1 similar, -1 dissimilar
distance, similar = torch.tensor([0.3, 1.5, 0.4]), torch.tensor([1.0, -1.0, -1.0])
show("HingeEmbeddingLoss", nn.HingeEmbeddingLoss(), F.hinge_embedding_loss, distance, similar)

# Pairs of embeddings, compared by cosine similarity
a, b = torch.tensor([[1.0, 0.0], [1.0, 1.0]]), torch.tensor([[0.8, 0.6], [1.0, 1.0]])
show("CosineEmbeddingLoss", nn.CosineEmbeddingLoss(), F.cosine_embedding_loss,
     a, b, torch.tensor([1.0, -1.0]))

# Triplets: the anchor closer to the positive than to the negative, by a margin
anchor, positive = torch.tensor([[0.0, 0.0]]), torch.tensor([[0.5, 0.0]])
negative = torch.tensor([[0.0, 1.0]])
show("TripletMarginLoss", nn.TripletMarginLoss(margin=1.0), F.triplet_margin_loss,
     anchor, positive, negative)


def cosine_distance(x, y):
    return 1 - F.cosine_similarity(x, y)


# ... with any distance function
show("TripletMarginWithDistanceLoss",
     nn.TripletMarginWithDistanceLoss(distance_function=cosine_distance, margin=0.5),
     F.triplet_margin_with_distance_loss, anchor + 1, positive + 1, negative + 1,
     distance_function=cosine_distance, margin=0.5)

# Sequence labelling without alignment (speech, handwriting): CTC.
# log_probs [T, N, C] with class 0 the blank; targets without blanks
torch.manual_seed(0)
log_probs = torch.randn(5, 1, 4).log_softmax(dim=2)
targets = torch.tensor([[1, 2]])
input_lengths, target_lengths = torch.tensor([5]), torch.tensor([2])
show("CTCLoss", nn.CTCLoss(), F.ctc_loss, log_probs, targets, input_lengths, target_lengths)
# An input shorter than its target has no alignment: an infinite loss
short = log_probs[:1]
print("too short:", F.ctc_loss(short, targets, torch.tensor([1]), target_lengths),
      F.ctc_loss(short, targets, torch.tensor([1]), target_lengths, zero_infinity=True))
