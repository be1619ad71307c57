"""torch.index_select picks whole slices along a dim; torch.take reads the tensor as if
flattened.

Run: python index_select_take.py
"""
import torch

x = torch.tensor([[10, 11, 12], [20, 21, 22]])
cols = torch.tensor([2, 0, 2])  # indices may repeat and come in any order
print(f"index_select(x, 1, [2, 0, 2]):\n{torch.index_select(x, 1, cols)}")
print(f"index_select(x, 0, [1]):\n{torch.index_select(x, 0, torch.tensor([1]))}")  # dim kept

try:
    torch.index_select(x, 1, torch.tensor([[0, 1]]))  # the index must be 1-D
except IndexError as error:
    print(f"IndexError: {error}")

flat = torch.tensor([0, 4, -1])  # positions in the flattened tensor; -1 is the last
print("take:", torch.take(x, flat))
print("reshape(-1)[...]:", torch.reshape(x, (-1,))[flat])  # what take means
print("take, 2-D index:", torch.take(x, torch.tensor([[0, 5]])))  # result has the index's shape
print("take on x.t():", torch.take(x.t(), torch.tensor([0, 1, 2])))  # logical order, not memory
