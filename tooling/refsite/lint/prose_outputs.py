"""No output-shaped text in the pages' prose unless a record holds it.

The rule. Prose is every line of a page outside fenced blocks (snippets, signatures, tables of
commands in ``text`` fences and so on are not prose). In prose, these are *output-shaped*:

1. an inline code span that looks like output rather than code:

   - an exception or warning with its message (``ValueError: ...``, ``... Error: ...``);
   - a printed tensor or a list of numbers (``tensor([0, 1])``, ``[3.0, 6.0]``);
   - a message: three or more words, or two words with no code in them, that are neither a
     Python expression nor a shell command (``rank 1 failed first``,
     ``Connection refused``);

2. outside code, a message in double quotes (``"..."`` or ``“...”``) of three or more Latin
   words (``"Unable to find address for: eht0"``);

3. outside code, a printed-looking number: four or more decimal places (``7.5351``);

4. outside code, a count or rate of runs (``3 runs out of 5``, ``2 of 40``, ``3/13``,
   ``one run in six``, ``40 次中 3 次``), a duration (``0.5 s``, ``30 minutes``) or a vague
   timing (``under a second``).

An output-shaped text passes when

- it is a quotation pulled from a record at build time: the ``{recorded}`` and ``{measured}``
  roles of ``refsite.sphinxext.recorded_quotes``, whose content is not inspected here (the build
  checks it); or
- it appears verbatim in a recorded output of a snippet that the same page embeds (any
  variant, any rank), as the page shows it; or
- it matches a pattern of :data:`ALLOW` (code that looks like output, and figures that are not
  outputs but facts of the installed torch, each with the reason).

Everything else is reported with its page, line and text (:func:`check_docs`);
``tests/lint/test_prose_outputs.py`` runs it on the pages, and plants violations in a tiny tree to
show each kind is caught.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from refsite.snippets import ReferenceProblem, references
from refsite.languages import LANGUAGES
from refsite.myst_pages import embedded_snippets
from refsite.myst_pages import read_page


#: Output-shaped texts that are not outputs: (regular expression matched against the whole text,
#: why it is allowed). Keep it small; a quotation of a real output belongs in a record.
ALLOW: list[tuple[str, str]] = [
    (r"(10|30) (minutes|分钟)", "process-group timeout defaults: 30 min in "
     "torch/distributed/constants.py, 10 min for NCCL (_DEFAULT_PG_NCCL_TIMEOUT, C++)"),
    (r"\d+/13", "the probabilities of the weights [0, 10, 3, 0] the page explains"),
    (r"\[0, 10, 3, 0\]", "an input (multinomial weights) in a parameter description"),
    (r"Root Cause \(first observed failure\)",
     "a heading of torchrun's failure report, a string literal in the source of "
     "torch/distributed/elastic/multiprocessing/errors/__init__.py"),
    (r"5 秒", "the per-cell timeout support_matrix.py sets (timedelta(seconds=5) in its source)"),
    (r"(needs 2 GPUs; )?not captured yet", "the site's own words (refsite.interface_words)"),
    (r"(scontrol|srun|nc|pkill|kill|torchfrtrace|ip|py-spy|nvidia-smi) .*|ip addr",
     "shell commands the reader types on a cluster, not output"),
    (r"Output: same on all devices", "a snippet header line, as written in the snippets (snippetspec)"),
    (r"only available with the NCCL backend", "a quotation of the ReduceOp docstring of torch "
     "2.15 (torch/distributed/distributed_c10d.py), not an output"),
    (r"load what matches|can become a tensor|the same step everywhere|because DDP sums gradients",
     "prose in quotation marks (an idiom, a claim the page refutes), not output"),
]

_ROLE = re.compile(r"\{(recorded|measured)\}`[^`]*`")
_OTHER_ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`")
_SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")
_DOUBLE_SPAN = re.compile(r"``(.+?)``")
_LINK = re.compile(r"\]\([^)]*\)|https?://\S+|<[^>\s]+>")

_ERROR = re.compile(r"\b[A-Z]\w*(Error|Exception|Warning|Interrupt)\b:|^Traceback\b")
_TENSOR = re.compile(r"^tensor\(")
_NUMBERS = re.compile(r"^\[\s*-?\d+(\.\d*)?(e[-+]?\d+)?(\s*,\s*-?\d+(\.\d*)?(e[-+]?\d+)?)+\s*\]$")
_ARITHMETIC = re.compile(r"^[\d\s+\-*/×=.()]+$")
_SHAPE = re.compile(r"^\[[\w\s,.*…]+\]$")
_PLACEHOLDER = re.compile(r"<[^<>]+>")
_COUNT = re.compile(
    r"\b\d+ (?:\w+ )?out of \d+\b"  # 3 runs out of 5
    r"|\b\d+ of (?:about )?\d+\b(?= (?:launches|runs|restarts|attempts|times)\b|\s*\||\s*$)"
    r"|(?<![\w/.:])\d+/\d+(?![\w/.])"  # 3/13
    r"|\bone (?:\w+ )?in (?:two|three|four|five|six|seven|eight|nine|ten|\d+)\b"
    r"|\d+ ?次中(?:有)? ?\d+ ?次|[一二三四五六七八九十]分之一"
    r"|每[一二三四五六七八九十\d]+ ?次(?:运行)?就?有一次"
)
_PRECISE = re.compile(r"(?<![\w.])-?\d+\.\d{4,}(?!\w|\.\d)")
_DURATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)? ?(?:ms|µs|us|s|sec|seconds?|minutes?|hours?|秒|分钟)"
                       r"(?![A-Za-z0-9_-])|\bunder a second\b|不到一秒")
_SHELL = re.compile(r"^(?:[A-Z_]+=\S*\s+)*(?:torchrun|python3?|make|pip|pytest|export|sphinx-build"
                    r"|NCCL_\w+|GLOO_\w+|TORCH\w*)\b")
_QUOTED = re.compile(r'"([^"`]+)"|“([^”`]+)”')
_LATIN_WORDS = re.compile(r"[A-Za-z][\w.:;,'-]*(?:\s+[A-Za-z0-9][\w.:;,'-]*){2,}")
_CODE_CHARS = re.compile(r"[()\[\]=.:_/<>{}*\"'#@+%-]|\d")


def _is_python(text: str) -> bool:
    """Whether ``text`` is Python: an expression, statements, or a block header (``if x:``);
    ``×`` and ``…`` read as ``*`` and ``,``, as the pages write formulas."""
    text = text.replace("×", "*").replace("…", ",")
    for candidate in (text, text + "\n    pass"):
        try:
            ast.parse(candidate)
            return True
        except SyntaxError:
            pass
    return False


def output_shaped_span(text: str) -> bool:
    """Whether the content of an inline code span looks like output (rule 1)."""
    text = text.strip()
    if _ERROR.search(text) or _TENSOR.match(text) or _NUMBERS.match(text):
        return True
    if _SHELL.match(text) or text.startswith("-") or _ARITHMETIC.match(text) \
            or _SHAPE.match(text) or " " not in _PLACEHOLDER.sub("", text):
        return False
    words = text.split()
    if len(words) < 2:
        return False
    if _is_python(text):
        return False
    if len(words) >= 3:
        return True
    return not _CODE_CHARS.search(text)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line outside fenced blocks."""
    return list(read_page(text).outside)


def page_records(page: str, snippets: Path) -> str:
    """Everything the snippets embedded on a page recorded (all variants and ranks), and their
    sources (a value quoted from a snippet's code is code, not output)."""
    texts = []
    for rel in embedded_snippets(page):
        try:
            found = references.resolve_all(rel, snippets)
        except ReferenceProblem:  # a missing snippet or a bad header: the build names it
            continue
        texts.append(found[0].spec.path.read_text(encoding="utf-8"))
        for ref in found:  # every variant's record, stale or not; one that does not read raises
            if not ref.missing:
                texts += ref.current(stale_ok=True).ranks
    return "\n".join(texts)


def _allowed(text: str) -> bool:
    return any(re.fullmatch(pattern, text) for pattern, _why in ALLOW)


def paragraphs(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each run of prose lines not broken by a blank line."""
    out: list[tuple[int, str]] = []
    previous = None
    for number, line in prose_lines(text):
        if line.strip() and previous == number - 1 and out:
            out[-1] = (out[-1][0], out[-1][1] + "\n" + line)
        elif line.strip():
            out.append((number, line))
        previous = number if line.strip() else None
    return out


def classify(page: str, snippets: Path) -> list[tuple[int, str, str, str | None]]:
    """(line, kind, text, what backs it) of each output-shaped text of a page found outside the
    roles; what backs it is ``"record"`` (a recorded output on this page), ``"allowed"`` or
    ``None`` (nothing: a problem)."""
    recorded = page_records(page, snippets)

    def backing(text: str) -> str | None:
        return "record" if text in recorded else "allowed" if _allowed(text) else None

    found = []
    for first, para in paragraphs(page):
        para = _ROLE.sub(" ", para)
        para = _OTHER_ROLE.sub(" ", para)  # {ref}`...` and the like are links, not quotations
        para = _DOUBLE_SPAN.sub(lambda m: "`" + m.group(1).strip("` ") + "`", para)
        for match in _SPAN.finditer(para):
            text = " ".join(match.group(1).split())
            line = first + para[:match.start()].count("\n")
            if output_shaped_span(text):
                found.append((line, "output-shaped code", text, backing(text)))
        plain = _SPAN.sub(lambda m: " " * len(m.group(0)), _LINK.sub(lambda m: " " * len(
            m.group(0)), para))
        for match in _QUOTED.finditer(plain):
            text = " ".join((match.group(1) or match.group(2)).split())
            line = first + plain[:match.start()].count("\n")
            if _LATIN_WORDS.search(text):
                found.append((line, "quoted message", text, backing(text)))
        for pattern, kind in ((_PRECISE, "printed number"), (_COUNT, "count of runs"),
                              (_DURATION, "duration")):
            for match in pattern.finditer(plain):
                text = match.group(0).strip()
                line = first + plain[:match.start()].count("\n")
                found.append((line, kind, text, backing(text)))
    return found


def findings(page: str, snippets: Path) -> list[tuple[int, str, str]]:
    """(line, kind, text) of each output-shaped text of a page that nothing backs."""
    return [(line, kind, text) for line, kind, text, backed in classify(page, snippets)
            if backed is None]


def check_docs(docs: Path, snippets: Path) -> list[str]:
    """Every unbacked output-shaped text of every page, as 'page:line: kind: text'."""
    problems = []
    for lang in LANGUAGES:
        for path in sorted((docs / lang).rglob("*.md")):
            rel = path.relative_to(docs).as_posix()
            for number, kind, text in findings(path.read_text(encoding="utf-8"), snippets):
                problems.append(f"{rel}:{number}: {kind}: {text!r} is quoted in prose but no "
                                f"record holds it; quote it with {{recorded}} or {{measured}}, "
                                f"show it in a snippet on this page, or drop it")
    return problems


def count_quotations(docs: Path) -> dict[str, int]:
    """How many quotations the pages pull from records, by role."""
    counts = {"recorded": 0, "measured": 0}
    for lang in LANGUAGES:
        for path in (docs / lang).rglob("*.md"):
            for _, para in paragraphs(path.read_text(encoding="utf-8")):
                for match in _ROLE.finditer(para):
                    counts[match.group(1)] += 1
    return counts
