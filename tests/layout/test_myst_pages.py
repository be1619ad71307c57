"""The one reader of the pages' MyST source (``refsite.myst_pages``) that the page checks use."""

from __future__ import annotations

from refsite.myst_pages import read_page

PAGE = """(top)=
# Title

::::{tab-set}
:::{tab-item} A
```{snippet} area/a.py
```
:::
::::

````console
```{snippet} not/embedded.py
```
(not-a-label)=
````

```{signature}
torch.f(x)
```
(after)=
"""


def test_blocks_nested_in_a_directive_are_found_with_their_lines():
    page = read_page(PAGE)
    [snippet] = page.directives("snippet")
    assert (snippet.argument, snippet.line) == ("area/a.py", 6)
    [signature] = page.directives("signature")
    assert (signature.body_line, signature.body) == (18, "torch.f(x)")


def test_a_code_block_is_literal_and_a_longer_fence_holds_a_shorter_one():
    page = read_page(PAGE)
    console = [f for f in page.fences if f.argument == "console"]
    assert len(console) == 1 and "(not-a-label)=" in console[0].body
    assert page.labels() == ["top", "after"]
    assert (20, "(after)=") in page.outside and all("embedded" not in line for _, line in page.outside)
