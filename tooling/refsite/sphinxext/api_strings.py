"""The words of the generated ledger pages (coverage, A to Z), in each language of the site."""

from __future__ import annotations

import dataclasses
from collections import Counter

from refsite import ledger
from refsite.ledger import Entry, Namespace

#: How each reason reads before the name it points at (empty: it points at nothing).
_REASONS = {
    "en": {
        "alias": "alias of ",
        "options": "options type, used through ",
        "deprecated": "deprecated; use ",
        "not-yet": "not shown yet",
    },
    "zh": {
        "alias": "别名，等同于 ",
        "options": "选项类型，通过以下 API 使用：",
        "deprecated": "已弃用，请改用 ",
        "not-yet": "尚无示例",
    },
}
#: Reason kinds as the counts name them.
_KINDS = {
    "en": {"alias": "alias", "options": "options type", "deprecated": "deprecated",
           "hardware": "needs hardware", "out-of-scope": "out of scope", "not-yet": "not shown yet"},
    "zh": {"alias": "别名", "options": "选项类型", "deprecated": "已弃用",
           "hardware": "需要硬件", "out-of-scope": "不在范围内", "not-yet": "尚无示例"},
}
_ENUMERATED = {
    "en": {"__all__": "Names enumerated from the installed torch: `{ns}.__all__`.",
           "dir": "Names enumerated from the installed torch: the public attributes of `{ns}` defined in `{defined_in}`.",
           "reference": "Names listed by torch's own reference: {source}.",
           "members": "Members enumerated from the installed torch: the public members of `{ns}`{less}{cut}."},
    "zh": {"__all__": "名称取自所安装 torch 的 `{ns}.__all__`。",
           "dir": "名称取自所安装 torch 中 `{ns}` 的公开属性（限于在 `{defined_in}` 中定义的）。",
           "reference": "名称取自 torch 官方参考文档的列表：{source}。",
           "members": "成员取自所安装 torch 中 `{ns}` 的公开成员{less}{cut}。"},
}


@dataclasses.dataclass(frozen=True)
class Strings:
    lang: str

    def reason(self, entry: Entry) -> tuple[str, str]:
        """The reason's text and the entry it points at (or "")."""
        if entry.reason in ("hardware", "out-of-scope"):
            field = entry.fields["needs" if entry.reason == "hardware" else "why"]
            prefix = _KINDS[self.lang][entry.reason] + ("：" if self.lang == "zh" else ": ")
            return prefix + field[self.lang], ""
        target = entry.fields.get("of") or entry.fields.get("via") or entry.fields.get("replacement") or ""
        return _REASONS[self.lang][entry.reason], target

    def _tally(self, entries: list[Entry]) -> str:
        shown = sum(e.shown for e in entries)
        kinds = Counter(e.reason for e in entries if not e.shown)
        parts = [f"{_KINDS[self.lang][k]} {n}" for k, n in sorted(kinds.items())]
        if self.lang == "zh":
            return (f"共 {len(entries)} 个名称：{shown} 个有示例，{len(entries) - shown} 个注明原因"
                    + (f"（{'，'.join(parts)}）" if parts else "") + "。")
        return (f"{len(entries)} names: {shown} shown, {len(entries) - shown} with a reason"
                + (f" ({', '.join(parts)})" if parts else "") + ".")

    def totals(self, entries: list[Entry]) -> str:
        return ("全部命名空间合计：" if self.lang == "zh" else "All namespaces together: ") + self._tally(entries)

    def counts(self, ns: Namespace) -> str:
        return self._tally(list(ns.entries))

    def enumerated(self, ns: Namespace) -> str:
        zh = self.lang == "zh"
        less = cut = ""
        if ns.inherited_from:
            less = f"（不含 {ns.inherited_from} 也有的）" if zh else f", less those {ns.inherited_from} also has"
        if ns.method_forms_of:
            cut = (f"，只取 {ns.method_forms_of} 各台账文件所列函数的方法形式，以及本站各节涉及的 "
                   f"{len(ns.also)} 个其他成员" if zh else
                   f", cut to the method forms of the functions the {ns.method_forms_of} ledger "
                   f"files list and {len(ns.also)} other members of the sections the site covers")
        return _ENUMERATED[self.lang][ns.names_from].format(ns=ns.namespace, defined_in=ns.defined_in,
                                                            source=ns.source, less=less,
                                                            cut=cut).replace("`", "")


def strings_for(language: str | None) -> Strings:
    """The strings of the site language ``language`` (``zh_CN`` gives Chinese)."""
    return Strings("zh" if (language or "").startswith("zh") else "en")


assert set(_KINDS["en"]) == set(ledger.REASONS) == set(_KINDS["zh"])
