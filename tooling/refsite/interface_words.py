"""The site's interface words: every caption, notice and heading the extensions write on a page,
in every language of :data:`refsite.languages.LANGUAGES`, side by side under one stable key.

The extensions take them through ``refsite.sphinxext.page_language.page_words`` (the words of
the page's language); ``{name}`` fields are filled with ``str.format``. A new word gets every
language at once (``tests/sphinxext/test_interface_words.py`` holds the table to that).
Standard library only.
"""

from __future__ import annotations

import functools
import types

from refsite.languages import LANGUAGES

#: Key -> {tree name: text}. Keys are ``<where>.<what>``; the part before the dot names the
#: extension (or the kind of block) that shows the word.
WORDS: dict[str, dict[str, str]] = {
    # A snippet block: caption, provenance and notices (refsite.sphinxext.verified_snippets).
    "snippet.source": {"en": "Source", "zh": "源代码"},
    "snippet.download": {"en": "Download {name}", "zh": "下载 {name}"},
    "snippet.provenance": {
        "en": "Recorded with torch {torch} · backend {backend} · device {device} · world size {world_size}",
        "zh": "录制环境：torch {torch} · 后端 {backend} · 设备 {device} · world size {world_size}"},
    "snippet.provenance_single": {
        "en": "Recorded with torch {torch} · device {device} · single process",
        "zh": "录制环境：torch {torch} · 设备 {device} · 单进程"},
    "snippet.gpu": {"en": "on {count}× {model}, driver {driver}, CUDA {cuda}, NCCL {nccl}",
                    "zh": "{count}× {model}，驱动 {driver}，CUDA {cuda}，NCCL {nccl}"},
    "snippet.gpu_unnamed": {"en": "GPU not named (recorded before records named their GPU)",
                            "zh": "未记录 GPU 型号（录制时输出文件尚不记录 GPU）"},
    "snippet.not_captured_one": {"en": "needs 1 GPU; not captured yet", "zh": "需要 1 块 GPU，尚未录制输出"},
    "snippet.not_captured_many": {"en": "needs {gpus} GPUs; not captured yet",
                                  "zh": "需要 {gpus} 块 GPU，尚未录制输出"},
    # Beside "not captured yet": what the GPU variant is expected to print, and how to capture it.
    "snippet.gpu_same": {"en": "Once captured, its output should equal the {cpu} record: the example declares "
                               "\"Output: same on all devices\".",
                         "zh": "录制后，它的输出应与 {cpu} 变体的录制结果相同：示例头部声明了各设备输出相同"
                               "（Output: same on all devices）。"},
    "snippet.gpu_may_differ": {"en": "Its output may differ from the CPU variant's (device names, floating-point "
                                     "results), so it is shown once it has been captured on GPUs.",
                               "zh": "它的输出可能与 CPU 变体不同（设备名称、浮点结果），所以要在 GPU 上录制之后才会显示。"},
    "snippet.gpu_capture": {"en": "How to capture it on a GPU machine or a Slurm cluster",
                            "zh": "如何在 GPU 机器或 Slurm 集群上录制"},
    "snippet.unavailable": {"en": "No verified output to show (the build reported why).",
                            "zh": "暂无经过验证的输出（原因见构建日志）。"},
    # The theme's own interface where it takes no translation (refsite.sphinxext.chrome).
    "chrome.search": {"en": "Search...", "zh": "搜索…"},
    "chrome.toggle_primary": {"en": "Toggle primary sidebar", "zh": "显示或隐藏导航栏"},
    "chrome.toggle_secondary": {"en": "Toggle secondary sidebar", "zh": "显示或隐藏本页目录"},
    # One rank's tab, in a snippet block and a cluster record.
    "output.rank": {"en": "rank {rank}", "zh": "rank {rank}"},

    # The compat line of a CPU panel, the page stamp and the compat table (compat_notes).
    "compat.same": {"en": "Same output on torch {span}", "zh": "torch {span} 输出相同"},
    "compat.same_again": {"en": "same on {span}", "zh": "{span} 输出相同"},
    "compat.differs": {"en": "differs on {span}", "zh": "{span} 输出不同"},
    "compat.fails": {"en": "fails on {span}: ", "zh": "{span} 运行失败："},
    "compat.fails_any": {"en": "fails on {span}", "zh": "{span} 运行失败"},
    "compat.mixed": {"en": "mixed on {span}", "zh": "{span} 结果不一"},
    # A result that varied from run to run on one release (compat_results.repeated).
    "compat.repeated": {"en": "{kind} in {k} of {n} runs on {span}", "zh": "{span} 运行 {n} 次，{k} 次{kind}"},
    "compat.repeated_runs": {"en": "{kind} in {k} of {n} runs", "zh": "运行 {n} 次，{k} 次{kind}"},
    "compat.repeated_other": {"en": ", {kind} in {k}", "zh": "、{k} 次{kind}"},
    "compat.kind_same": {"en": "same", "zh": "输出相同"},
    "compat.kind_differs": {"en": "differs", "zh": "输出不同"},
    "compat.kind_fails": {"en": "fails", "zh": "运行失败"},
    "compat.kind_hangs": {"en": "hangs", "zh": "卡住"},
    "compat.joiner": {"en": "; ", "zh": "；"},
    "api.works_since": {"en": "Works since torch {release}", "zh": "自 torch {release} 起可用"},
    "api.since_short": {"en": "since torch {release}", "zh": "torch {release} 起可用"},
    "compat.details_summary": {"en": "results by release", "zh": "各版本的结果"},
    "compat.details_differs": {"en": "differs", "zh": "输出不同"},
    "compat.no_results": {
        "en": "No results on older torch releases yet: this example or its record changed after the last make compat.",
        "zh": "尚无旧版 torch 上的结果：上次 make compat 之后，这个示例或它的记录有改动。"},
    "compat.stamp": {"en": "Outputs on this page: recorded with torch {torch} · {setups} · {sizes}",
                     "zh": "本页输出：录制于 torch {torch} · {setups} · {sizes}"},
    "compat.world_size": {"en": "world size {sizes}", "zh": "world size {sizes}"},
    "compat.world_sizes": {"en": "world sizes {sizes}", "zh": "world size {sizes}"},
    "compat.stamp_compat": {"en": " · older releases run on {dates} (torch {span})",
                            "zh": " · 旧版本运行于 {dates}（torch {span}）"},
    "compat.stamp_no_compat": {"en": " · not run on older releases yet", "zh": " · 尚未在旧版本上运行"},
    "compat.table_example": {"en": "example [variant]", "zh": "示例 [变体]"},
    "compat.table_legend": {
        "en": "✓ same output · Δ different output · ✗ fails · – no result for this version of the example",
        "zh": "✓ 输出相同 · Δ 输出不同 · ✗ 运行失败 · – 这一版示例尚无结果"},

    # The chooser of two releases (compat_changes); {error_type} is an exception's name.
    "between.from": {"en": "from torch", "zh": "从 torch"},
    "between.to": {"en": "to torch", "zh": "到 torch"},
    "between.example": {"en": "example [variant]", "zh": "示例 [变体]"},
    "between.on": {"en": "on {release}", "zh": "在 {release} 上"},
    "between.summary": {
        "en": "{changed} of {total} examples behave differently on {new} than on {old}; {unknown} have no result on one of them.",
        "zh": "{total} 个示例中有 {changed} 个在 {new} 与 {old} 上表现不同；另有 {unknown} 个在其中一个版本上没有结果。"},
    "between.same": {"en": "same output", "zh": "输出相同"},
    "between.differs": {"en": "different output", "zh": "输出不同"},
    "between.fails": {"en": "fails: {error_type}", "zh": "运行失败：{error_type}"},
    "between.loading": {"en": "Loading the results of torch {old} and {new}…", "zh": "正在读取 torch {old} 与 {new} 的结果……"},
    "between.load_failed": {"en": "The results could not be loaded ({error}); open the site over HTTP (make serve).",
                            "zh": "无法读取结果（{error}）；请通过 HTTP 打开本站（make serve）。"},
    "between.none_measured": {"en": "No older release has been measured yet (make compat).",
                              "zh": "尚未测量任何旧版本（make compat）。"},

    # A recorded multi-node run (cluster_record).
    "cluster.provenance": {
        "en": ("Recorded on a virtual cluster (network-namespace hosts on one machine) with torch {torch} · "
               "{date} · {machine} · {same} of {runs} runs printed the same"),
        "zh": ("录制环境：虚拟集群（同一台机器上以网络命名空间模拟的主机）· torch {torch} · {date} · "
               "{machine} · 重复运行 {runs} 次，其中 {same} 次输出相同")},
    "cluster.exit_code": {"en": "exit code {code}", "zh": "退出码 {code}"},
    "cluster.killed": {"en": "still running after {timeout}: killed", "zh": "{timeout} 后仍在运行，被强制结束"},
    "cluster.slurm_job": {"en": "Slurm job {state}, exit code {code}", "zh": "Slurm 作业 {state}，退出码 {code}"},
    "cluster.agent": {"en": "printed by torchrun or Slurm on {host}", "zh": "{host} 上由 torchrun 或 Slurm 自身打印"},
    "cluster.agent_condensed": {
        "en": ("printed by torchrun on {host}, condensed: each line once, each traceback's last line, "
               "and torchrun's failure summary"),
        "zh": "{host} 上由 torchrun 打印（已精简：相同的行只留一行，每段 traceback 只留最后一行，外加 torchrun 的失败汇总）"},
    "cluster.nothing": {"en": "(printed nothing)", "zh": "（没有任何输出）"},

    # What a move of the torch pin changed (record_changes).
    "changes.summary": {
        "en": ("{changed} of {compared} records print something else with torch {new} than they did with "
               "torch {old} (records of commit {commit}; compared without C++ line numbers; generated on "
               "{date} by {command})."),
        "zh": ("共 {compared} 份记录中，有 {changed} 份在 torch {new} 下的输出与 torch {old} 下不同"
               "（旧记录取自提交 {commit}；比较时忽略 C++ 行号；由 {command} 于 {date} 生成）。")},
    "changes.example_changed": {"en": "The example was changed for torch {new}; the diff shows both effects.",
                                "zh": "示例本身为 torch {new} 做了修改；差异中两方面的影响都有。"},
    "changes.example_same": {"en": "The example is unchanged: torch alone prints this differently.",
                             "zh": "示例没有改动：输出的变化完全来自 torch。"},

    # The GPU variants table of the GPU runners page (gpu_variants).
    "gpu_variants.head_example": {"en": "example", "zh": "示例"},
    "gpu_variants.head_variant": {"en": "variant", "zh": "变体"},
    "gpu_variants.head_gpus": {"en": "GPUs", "zh": "GPU 数"},
    "gpu_variants.head_captured": {"en": "captured", "zh": "录制情况"},
    "gpu_variants.not_yet": {"en": "not yet", "zh": "尚未录制"},
    "gpu_variants.captured": {"en": "{model}, torch {torch}, {date}", "zh": "{model}，torch {torch}，{date}"},
    "gpu_variants.unnamed": {"en": "GPU not named, torch {torch}", "zh": "未记录 GPU 型号，torch {torch}"},
    "gpu_variants.failed": {"en": "not yet: failed on {model} with torch {torch}, {date}: {reason}",
                            "zh": "尚未录制：{date} 在 {model}（torch {torch}）上运行失败：{reason}"},
    "gpu_variants.summary": {
        "en": "{total} GPU variants: {captured} captured, {missing} not yet ({one} of these need 1 GPU, {more} need 2 or more).",
        "zh": "共 {total} 个 GPU 变体：{captured} 个已录制，{missing} 个尚未录制（其中 {one} 个需要 1 块 GPU，{more} 个需要 2 块或更多）。"},

    # The domain index of the project's own tooling (tooling_index).
    "tooling_index.title": {"en": "Tooling index", "zh": "工具索引"},

    # The ledger pages, coverage and A to Z (api_strings): a reason before the name it points at...
    "ledger.reason.alias": {"en": "alias of ", "zh": "别名，等同于 "},
    "ledger.reason.options": {"en": "options type, used through ", "zh": "选项类型，通过以下 API 使用："},
    "ledger.reason.deprecated": {"en": "deprecated; use ", "zh": "已弃用，请改用 "},
    "ledger.reason.not-yet": {"en": "not shown yet", "zh": "尚无示例"},
    # ... reason kinds as the counts name them ...
    "ledger.kind.alias": {"en": "alias", "zh": "别名"},
    "ledger.kind.options": {"en": "options type", "zh": "选项类型"},
    "ledger.kind.deprecated": {"en": "deprecated", "zh": "已弃用"},
    "ledger.kind.hardware": {"en": "needs hardware", "zh": "需要硬件"},
    "ledger.kind.out-of-scope": {"en": "out of scope", "zh": "不在范围内"},
    "ledger.kind.not-yet": {"en": "not shown yet", "zh": "尚无示例"},
    "ledger.kind_colon": {"en": ": ", "zh": "："},
    # ... the counts ...
    "ledger.tally": {"en": "{total} names: {shown} shown, {reasoned} with a reason{kinds}.",
                     "zh": "共 {total} 个名称：{shown} 个有示例，{reasoned} 个注明原因{kinds}。"},
    "ledger.tally_kinds": {"en": " ({kinds})", "zh": "（{kinds}）"},
    "ledger.tally_joiner": {"en": ", ", "zh": "，"},
    "ledger.totals": {"en": "All namespaces together: ", "zh": "全部命名空间合计："},
    # ... and where a namespace's names come from.
    "ledger.enumerated.__all__": {"en": "Names enumerated from the installed torch: `{ns}.__all__`.",
                                  "zh": "名称取自所安装 torch 的 `{ns}.__all__`。"},
    "ledger.enumerated.dir": {
        "en": "Names enumerated from the installed torch: the public attributes of `{ns}` defined in `{defined_in}`.",
        "zh": "名称取自所安装 torch 中 `{ns}` 的公开属性（限于在 `{defined_in}` 中定义的）。"},
    "ledger.enumerated.reference": {"en": "Names listed by torch's own reference: {source}.",
                                    "zh": "名称取自 torch 官方参考文档的列表：{source}。"},
    "ledger.enumerated.members": {
        "en": "Members enumerated from the installed torch: the public members of `{ns}`{less}{cut}.",
        "zh": "成员取自所安装 torch 中 `{ns}` 的公开成员{less}{cut}。"},
    "ledger.enumerated_less": {"en": ", less those {inherited} also has", "zh": "（不含 {inherited} 也有的）"},
    "ledger.enumerated_cut": {
        "en": (", cut to the method forms of the functions the {ledger} ledger files list and {also} other "
               "members of the sections the site covers"),
        "zh": "，只取 {ledger} 各台账文件所列函数的方法形式，以及本站各节涉及的 {also} 个其他成员"},
}


@functools.cache
def words(language: str) -> types.MappingProxyType[str, str]:
    """Every interface word in ``language`` (a tree name of ``LANGUAGES``), by its key."""
    if language not in LANGUAGES:
        raise KeyError(f"{language!r} is not a language of the site ({', '.join(LANGUAGES)})")
    return types.MappingProxyType({key: texts[language] for key, texts in WORDS.items()})


def gaps() -> list[str]:
    """``key: language`` for each word a language of the site lacks (or has empty), and for each
    text in a language the site does not build; empty when the table is whole."""
    return [f"{key}: {language}" for key, texts in WORDS.items()
            for language in sorted(set(LANGUAGES) ^ {lang for lang, text in texts.items() if text})]
