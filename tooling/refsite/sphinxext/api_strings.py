"""The sentences of the generated ledger pages (coverage, A to Z), in the page's language.

The words are the ``ledger.*`` entries of :data:`refsite.interface_words.WORDS`; this module
puts them together with what the ledger says (a reason and the name it points at, the counts,
where a namespace's names come from).
"""

from __future__ import annotations

import dataclasses
import typing
from collections import Counter

from refsite import ledger
from refsite.interface_words import WORDS, words
from refsite.ledger import Entry, Namespace


@dataclasses.dataclass(frozen=True)
class Strings:
    """The ledger pages' sentences in language ``lang`` (a tree name: ``en``, ``zh``)."""

    lang: str

    @property
    def _words(self) -> typing.Mapping[str, str]:
        return words(self.lang)

    def reason(self, entry: Entry) -> tuple[str, str]:
        """The reason's text and the entry it points at (or "")."""
        if entry.reason in ("hardware", "out-of-scope"):
            field = entry.fields["needs" if entry.reason == "hardware" else "why"]
            prefix = self._words[f"ledger.kind.{entry.reason}"] + self._words["ledger.kind_colon"]
            return prefix + field[self.lang], ""
        target = entry.fields.get("of") or entry.fields.get("via") or entry.fields.get("replacement") or ""
        return self._words[f"ledger.reason.{entry.reason}"], target

    def _tally(self, entries: list[Entry]) -> str:
        shown = sum(e.shown for e in entries)
        kinds = Counter(e.reason for e in entries if not e.shown)
        parts = [f"{self._words[f'ledger.kind.{k}']} {n}" for k, n in sorted(kinds.items())]
        listed = self._words["ledger.tally_kinds"].format(kinds=self._words["ledger.tally_joiner"].join(parts))
        return self._words["ledger.tally"].format(total=len(entries), shown=shown, reasoned=len(entries) - shown,
                                                  kinds=listed if parts else "")

    def totals(self, entries: list[Entry]) -> str:
        return self._words["ledger.totals"] + self._tally(entries)

    def counts(self, ns: Namespace) -> str:
        return self._tally(list(ns.entries))

    def enumerated(self, ns: Namespace) -> str:
        less = cut = ""
        if ns.inherited_from:
            less = self._words["ledger.enumerated_less"].format(inherited=ns.inherited_from)
        if ns.method_forms_of:
            cut = self._words["ledger.enumerated_cut"].format(ledger=ns.method_forms_of, also=len(ns.also))
        return self._words[f"ledger.enumerated.{ns.names_from}"].format(
            ns=ns.namespace, defined_in=ns.defined_in, source=ns.source, less=less, cut=cut).replace("`", "")


# Every reason kind of the ledger has its words.
assert {key for key in WORDS if key.startswith("ledger.kind.")} == {f"ledger.kind.{r}" for r in ledger.REASONS}
