"""Which API names a snippet uses, read from its code (never run, never imported).

``import torch.distributed as dist`` then ``dist.all_reduce(t)`` uses
``torch.distributed.all_reduce``; ``from torch.distributed.fsdp import fully_shard`` uses
``torch.distributed.fsdp.fully_shard``. Every dotted name reached from an imported name through
attributes counts, with each of its prefixes (``torch.distributed.ReduceOp.SUM`` also uses
``torch.distributed.ReduceOp``). Attribute names reached from anything else (``t.bernoulli_()``,
``model.unshard()``) are collected apart: a member entry (``Tensor.bernoulli_``) is used when its
last part is among them. The object's type is not inferred: ``x.view(2, 3)`` uses every member
named ``view``, of whatever class; ``torch.view(x)`` does not (it is reached from an import), and a
snippet that never writes ``.view`` does not use ``Tensor.view``. Subscripting (``mesh["dp"]``)
uses ``__getitem__``, assigning through a subscript ``__setitem__``. A method a snippet's class
defines (``def join_hook(self, ...)`` in a ``Joinable``) is a member it uses: it implements it.
"""

from __future__ import annotations

import ast
import dataclasses


@dataclasses.dataclass(frozen=True)
class Uses:
    """Dotted names a snippet reaches from its imports, and attribute names it reaches otherwise."""

    dotted: frozenset[str]
    attributes: frozenset[str]

    def uses(self, name: str, member: bool) -> bool:
        """Whether ``name`` (full dotted) is used; a ``member`` entry also by its last part."""
        return name in self.dotted or (member and name.rpartition(".")[2] in self.attributes)


def _chain(node: ast.AST) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``, or None when it does not start at a plain name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def read(source: str) -> Uses:
    """The names ``source`` uses."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}
    dotted: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
                dotted.add(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                bound[alias.asname or alias.name] = full
                dotted.add(full)
    attributes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain = _chain(node)
            if chain and chain[0] in bound:
                base = bound[chain[0]].split(".")
                for cut in range(1, len(chain)):
                    dotted.add(".".join(base + chain[1:cut + 1]))
            else:
                attributes.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            attributes.update(item.name for item in node.body
                              if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))
        elif isinstance(node, ast.Subscript):
            attributes.add("__setitem__" if isinstance(node.ctx, ast.Store) else "__getitem__")
        elif isinstance(node, ast.Name) and node.id in bound:
            dotted.add(bound[node.id])
    return Uses(frozenset(dotted), frozenset(attributes))
