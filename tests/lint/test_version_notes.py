"""Version notes in prose: the pinned torch, or a role that reads the compat results; planted
notes of each kind are caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from refsite.languages import LANGUAGES
from refsite.lint.version_notes import check_docs, pinned_minor, typed_versions
from tests.support.paths import DOCS


def test_no_page_types_a_torch_version_but_the_pinned_one() -> None:
    problems = check_docs(DOCS, pinned_minor())
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("note, version", [
    ("Before torch 2.13 this function was called all_gather_into_tensor.", "2.13"),
    ("2.13 renamed it to match all_to_all_single.", "2.13"),
    ("torch < 1.6 cannot read the zip format.", "1.6"),
    ("A tuple of ints, since 2.0.", "2.0"),
    ("在 torch 2.6 之前，默认值是 False。", "2.6"),
])
def test_a_planted_note_is_found_with_its_page_and_line(tmp_path: Path, note: str, version: str) -> None:
    for lang in LANGUAGES:
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "page.md").write_text(f"# Page\n\nSome prose.\n{note}\n\n```python\nx = 2.13\n```\n")
    problems = check_docs(tmp_path, "2.15")
    assert problems[0].startswith(f"en/page.md:3: torch {version} is named in prose; show it with {{runs-since}}")
    assert len(problems) == 2


def test_roles_code_links_numbers_and_the_pin_are_not_notes() -> None:
    assert typed_versions("renamed in torch {runs-since}`distributed/all_gather_single.py`; "
                          "`torch 2.4` in code; [v2.13.0](https://github.com/pytorch/pytorch/blob/v2.13.0/x.py); "
                          "loss 7.5351 in 0.5 s, lr by 0.001, Python 3.11, CUDA 12.8") == []
    assert typed_versions("In torch 2.15.0 the default is True.") == ["2.15"]
