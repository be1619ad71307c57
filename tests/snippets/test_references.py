"""One resolver for a snippet reference, ``AREA/FILE.py[VARIANT]`` (:mod:`refsite.snippets.references`):
a good reference gives the spec, the variant, the record and its path; each way it can fail gives
an error naming the file and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite import snippets
from refsite.snippets import references
from tests.support.records import write_outputs

SNIPPET = '''"""Print a line.

Run: python demo.py
Variants: cpu, cuda
GPUs: 2
"""
print("hello")
'''


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """``area/demo.py`` with a record of its CPU variant only."""
    snippet = tmp_path / "area" / "demo.py"
    snippet.parent.mkdir()
    snippet.write_text(SNIPPET)
    write_outputs(snippet, "cpu", ("hello\n",), root=tmp_path)
    return tmp_path


def test_a_good_reference_gives_spec_variant_and_current_record(root: Path) -> None:
    found = snippets.resolve("area/demo.py", root)  # the first variant: the one Run: runs
    assert found.spec.path == (root / "area" / "demo.py").resolve()
    assert found.variant.id == "cpu" and found.reference == "area/demo.py[cpu]"
    assert found.record_path.name == "demo.cpu.out.json"
    assert found.problem is None and not found.missing and found.stale is None
    assert found.current().ranks == ("hello\n",)
    assert snippets.resolve("area/demo.py[cpu]", root) == found
    assert snippets.resolve("area/demo.py", root, device="cuda").variant.id == "cuda"


def _problem(reference: str, root: Path, **options: str) -> snippets.ReferenceProblem:
    with pytest.raises(snippets.ReferenceProblem) as info:
        snippets.resolve(reference, root, **options).current()
    return info.value


def test_a_missing_snippet_names_the_path_and_the_fix(root: Path) -> None:
    problem = _problem("area/gone.py", root)
    assert problem.kind == "no-snippet"
    assert "snippet 'area/gone.py' not found in" in str(problem)
    assert "fix: correct the path (it is relative to the snippets root) or add the snippet" in str(problem)


def test_a_path_out_of_the_root_is_refused_even_if_a_snippet_is_there(tmp_path: Path) -> None:
    root = tmp_path / "snippets"
    (root / "area").mkdir(parents=True)
    (tmp_path / "elsewhere.py").write_text(SNIPPET.replace("demo.py", "elsewhere.py"))
    problem = _problem("../elsewhere.py", root)
    assert problem.kind == "no-snippet"
    assert "snippet '../elsewhere.py' is outside the snippets root" in str(problem)


def test_an_invalid_header_names_the_file_and_the_fix(root: Path) -> None:
    (root / "area" / "bare.py").write_text('"""No header."""\n')
    problem = _problem("area/bare.py", root)
    assert problem.kind == "header" and problem.path.name == "bare.py"
    assert "has no 'Run:' line" in str(problem) and "fix: correct the module docstring of bare.py" in str(problem)


def test_an_unknown_variant_lists_the_declared_ones_and_the_fix(root: Path) -> None:
    problem = _problem("area/demo.py[gloo-cpu]", root)
    assert problem.kind == "no-variant"
    assert "snippet 'area/demo.py' has no variant 'gloo-cpu' (it has cpu, cuda)" in str(problem)
    assert "fix: name one of those, or declare it in the Variants: line of demo.py" in str(problem)
    cpu_only = _problem("area/demo.py[cuda]", root, device="cpu")
    assert "has no CPU variant 'cuda' (it has cpu)" in str(cpu_only)


def test_a_missing_record_is_kept_with_its_fix_and_raised_on_use(root: Path) -> None:
    found = snippets.resolve("area/demo.py[cuda]", root)
    assert found.record is None and found.missing and found.problem.kind == "no-record"
    assert found.problem.path == found.record_path
    message = str(_problem("area/demo.py[cuda]", root))
    assert "demo.cuda.out.json: expected output is missing" in message
    assert "regenerate it with 'make outputs' on a machine with 2 GPU(s)" in message


def test_an_unreadable_record_names_the_file_and_the_fix(root: Path) -> None:
    (root / "area" / "demo.cpu.out.json").write_text("{")
    problem = _problem("area/demo.py", root)
    assert problem.kind == "unreadable" and "demo.cpu.out.json: expected output does not parse" in str(problem)
    assert "'make outputs'" in str(problem)


def test_a_stale_record_says_why_and_the_fix(root: Path) -> None:
    (root / "area" / "demo.py").write_text(SNIPPET.replace("hello", "hi"))
    found = snippets.resolve("area/demo.py", root)
    assert found.stale == "demo.py changed since this output was recorded"
    assert found.current(stale_ok=True).ranks == ("hello\n",)  # still there for who needs it
    problem = _problem("area/demo.py", root)
    assert problem.kind == "stale"
    assert str(problem) == ("demo.cpu.out.json is stale (demo.py changed since this output was recorded); "
                            "fix: run 'make outputs'")


@pytest.mark.parametrize("reference", ["demo", "area/demo.py[cpu", "area/demo.py rank 1", ""])
def test_a_reference_that_does_not_parse_says_how_to_write_one(root: Path, reference: str) -> None:
    problem = _problem(reference, root)
    assert problem.kind == "syntax" and "fix: write 'AREA/FILE.py' or 'AREA/FILE.py[VARIANT]'" in str(problem)


def test_every_variant_of_a_snippet_in_declared_order(root: Path) -> None:
    found = references.resolve_all("area/demo.py", root)
    assert [(f.variant.id, f.problem.kind if f.problem else None) for f in found] == [("cpu", None),
                                                                                       ("cuda", "no-record")]
