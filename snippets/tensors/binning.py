"""Counting and binning: bincount, histc, histogram, histogramdd, bucketize and searchsorted.

Run: python binning.py
"""
import torch

labels = torch.tensor([0, 2, 2, 3, 2])
print("bincount:", torch.bincount(labels))  # one count per value 0..max
print("bincount minlength=6:", torch.bincount(labels, minlength=6))
w = torch.tensor([0.5, 1.0, 1.0, 2.0, 0.5])
print("bincount weights:", torch.bincount(labels, weights=w))  # sums of weights

x = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0])
print("histc:", torch.histc(x, bins=4, min=0, max=4))  # counts only; float result
print("histc default range:", torch.histc(x, bins=4))  # min=max=0: the data's min and max
hist = torch.histogram(x, bins=4, range=(0.0, 4.0))  # counts and the bin edges
print("histogram:", hist.hist, hist.bin_edges)
edges = torch.tensor([0.0, 1.0, 3.0, 4.0])
print("histogram with edges:", torch.histogram(x, bins=edges).hist)
print("density:", torch.histogram(x, bins=edges, density=True).hist)  # integrates to 1

points = torch.tensor([[0.0, 0.0], [0.5, 1.5], [1.5, 0.5], [1.5, 1.5]])
h2, e2 = torch.histogramdd(points, bins=[2, 2], range=[0.0, 2.0, 0.0, 2.0])
print(f"histogramdd:\n{h2}\nedges: {e2[0]} {e2[1]}")

boundaries = torch.tensor([1, 3, 5])
values = torch.tensor([0, 1, 2, 3, 6])
# bucket i: boundaries[i-1] < v <= boundaries[i]
print("bucketize:", torch.bucketize(values, boundaries))
print("bucketize right=True:", torch.bucketize(values, boundaries, right=True))
print("searchsorted:", torch.searchsorted(boundaries, values))  # same, sorted sequence first
print("searchsorted side='right':", torch.searchsorted(boundaries, values, side="right"))
rows = torch.tensor([[1, 3, 5], [10, 20, 30]])  # one sorted row per row of values
print("searchsorted per row:", torch.searchsorted(rows, torch.tensor([[4], [25]])).flatten())
