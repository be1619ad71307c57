"""The ledger's entries in the built site: every shown entry is a Python-domain object in both
languages (genindex, objects.inv), the tooling's names are not among the torch names, and
searching an exact API name puts its entry first."""

from __future__ import annotations

import posixpath
import urllib.parse
from pathlib import Path

import bs4

import pytest
from sphinx.util.inventory import InventoryFile

from refsite import ledger
from refsite.sphinxext.api_entries import node_id
from tests.browser.browser_support import REPO, WebDriver, drain, is_local, search

pytestmark = pytest.mark.browser

ENTRIES = {e.name: e for e in ledger.entries(ledger.read(REPO / ledger.DEFAULT_DIR))}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("query", "name"), [
    ("all_to_all_single", "torch.distributed.all_to_all_single"),
    ("fully_shard", "torch.distributed.fsdp.fully_shard"),
    ("torch.where", "torch.where"),
    ("Tensor.view", "torch.Tensor.view"),
    # FSDP1's no_sync matches as well; its ledger file is superseded_by fully_shard, so it comes after
    ("no_sync", "torch.nn.parallel.DistributedDataParallel.no_sync"),
    ("set_epoch", "torch.utils.data.distributed.DistributedSampler.set_epoch"),
    ("full_tensor", "torch.distributed.tensor.DTensor.full_tensor"),
    ("DistributedSampler", "torch.utils.data.distributed.DistributedSampler"),
    # everyday lookups
    ("item", "torch.Tensor.item"),
    ("size", "torch.Tensor.size"),
    ("float32", "torch.float32"),
    ("device", "torch.device"),
    ("matmul", "torch.matmul"),
    ("topk", "torch.topk"),
    ("einsum", "torch.einsum"),
    ("linalg.norm", "torch.linalg.norm"),
    ("fft.rfft", "torch.fft.rfft"),
    ("stft", "torch.stft"),
    ("hann_window", "torch.hann_window"),
    ("torch.inf", "torch.inf"),
    ("Sequential", "torch.nn.Sequential"),
    ("ModuleList", "torch.nn.ModuleList"),
    ("MaxPool2d", "torch.nn.MaxPool2d"),
    ("softmax", "torch.nn.functional.softmax"),
    ("interpolate", "torch.nn.functional.interpolate"),
    ("cuda.is_available", "torch.cuda.is_available"),
    ("current_accelerator", "torch.accelerator.current_accelerator"),
    ("record_function", "torch.profiler.record_function"),
    ("custom_op", "torch.library.custom_op"),
    ("param_groups", "torch.optim.Optimizer.param_groups"),
    ("LazyModuleMixin", "torch.nn.modules.lazy.LazyModuleMixin"),
    ("set_materialize_grads", "torch.autograd.Function.set_materialize_grads"),
    ("clear_safe_globals", "torch.serialization.clear_safe_globals"),
])
def test_an_exact_api_name_finds_its_entry_first(browser: WebDriver, base_url: str, lang: str,
                                                 query: str, name: str) -> None:
    entry = ENTRIES[name]
    assert entry.shown, f"{name} is not shown in the ledger"
    found = search(browser, f"{base_url}{lang}/search.html?q={urllib.parse.quote(query)}")
    assert found, f"searching {query!r} ({lang}) found nothing"
    expected = f"{base_url}{lang}/{entry.page}.html#{node_id(name)}"
    assert found[0][0] == expected, (
        f"searching {query!r} ({lang}) should find {expected} first; found first: {found[:3]}")
    errors, urls = drain(browser)
    assert not errors and all(map(is_local, urls)), (errors, urls)


SHOWN = {name for name, e in ENTRIES.items() if e.shown}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_objects_inv_holds_every_shown_entry_and_no_tooling_name_as_torch(site: Path, lang: str) -> None:
    with open(site / lang / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", posixpath.join)
    py = {name: item for kind, items in inventory.items() if kind.startswith("py:") for name, item in items.items()}
    torch_names = {name for name in py if name.split(".")[0] == "torch"}
    assert torch_names == SHOWN, (sorted(SHOWN - torch_names)[:10], sorted(torch_names - SHOWN)[:10])
    for name in SHOWN:
        assert py[name].uri == f"{ENTRIES[name].page}.html#{node_id(name)}", name
    assert {name.split(".")[0] for name in py} <= {"torch", "ranktest", "refsite"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_objects_inv_gives_members_their_roles(site: Path, lang: str) -> None:
    # Another project's intersphinx links :py:meth:`torch.Tensor.view` only if the role fits.
    with open(site / lang / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", posixpath.join)
    assert "torch.Tensor.view" in inventory["py:method"]
    assert "torch.Tensor.shape" in inventory["py:property"]
    assert "torch.distributed.Store.wait" in inventory["py:method"]
    assert "torch.utils.data.distributed.DistributedSampler" in inventory["py:class"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_a_to_z_page_lists_members_under_their_class(site: Path, lang: str) -> None:
    page = bs4.BeautifulSoup((site / lang / "reference" / "api_index.html").read_text(encoding="utf-8"),
                             "html.parser")
    for owner, member in [("torch.distributed.Store", "torch.distributed.Store.wait"),
                          ("torch.Tensor", "torch.Tensor.view")]:
        heads = [li for li in page.select("li") if li.find("code") and li.find("code").get_text() == owner]
        assert len(heads) == 1, f"{owner} should head one item of {lang}/reference/api_index.html"
        nested = [c.get_text() for c in heads[0].select("ul code")]
        assert member in nested, (owner, nested[:5])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_genindex_lists_every_shown_entry(site: Path, lang: str) -> None:
    page = bs4.BeautifulSoup((site / lang / "genindex.html").read_text(encoding="utf-8"), "html.parser")
    targets = {a["href"] for a in page.select("table.indextable a[href]")}
    missing = [n for n in sorted(SHOWN) if f"{ENTRIES[n].page}.html#{node_id(n)}" not in targets]
    assert not missing, f"{len(missing)} shown entries are not in {lang}/genindex.html: {missing[:10]}"


@pytest.mark.parametrize(("lang", "title"), [("en", "Tooling index"), ("zh", "工具索引")])
def test_the_tooling_is_indexed_apart(site: Path, lang: str, title: str) -> None:
    general = (site / lang / "genindex.html").read_text(encoding="utf-8")
    index = bs4.BeautifulSoup(general, "html.parser").select("table.indextable a[href]")
    assert index and not [a["href"] for a in index if "apidocs/" in a["href"]]
    tooling = bs4.BeautifulSoup((site / lang / "py-toolingindex.html").read_text(encoding="utf-8"), "html.parser")
    assert title in tooling.title.text
    hrefs = {a["href"] for a in tooling.select("table.indextable a[href]")}
    assert any(h.endswith("#ranktest.Forkserver") for h in hrefs), sorted(hrefs)[:5]
    assert not any("#api-torch" in h for h in hrefs)


#: The readers' sections; the contributors' page (the tooling) is in no sidebar.
CAPTIONS = {
    "en": ["Tensors", "Training", "Data parallel", "torch.distributed", "Sharded training",
           "Debugging", "Testing and GPU runners", "Reference"],
    "zh": ["张量", "训练", "数据并行", "torch.distributed", "分片训练", "调试", "测试与 GPU 运行器", "参考"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sidebar_is_grouped_under_section_captions(site: Path, lang: str) -> None:
    page = bs4.BeautifulSoup((site / lang / "tensors/select.html").read_text(encoding="utf-8"), "html.parser")
    assert [c.text for c in page.select("p.caption span.caption-text")] == CAPTIONS[lang]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_coverage_and_a_to_z_pages_are_made_from_the_ledger(site: Path, lang: str) -> None:
    from refsite.sphinxext.api_strings import Strings

    namespaces = ledger.read(REPO / ledger.DEFAULT_DIR)
    strings = Strings(lang)
    coverage = bs4.BeautifulSoup((site / lang / "reference/coverage.html").read_text(encoding="utf-8"), "html.parser")
    text = coverage.get_text(" ")
    assert strings.totals(ledger.entries(namespaces)) in text
    for ns in namespaces:
        assert strings.counts(ns) in text and ns.title[lang] in text, ns.file
    links = {a["href"] for a in coverage.select("a[href*='#api-']")}
    assert {f"../{e.page}.html#{node_id(n)}" for n, e in ENTRIES.items() if e.shown} <= links
    a_to_z = bs4.BeautifulSoup((site / lang / "reference/api_index.html").read_text(encoding="utf-8"), "html.parser")
    listed = [li.find("code").text for li in a_to_z.select("section li") if li.find("code")]
    owners = {e.owner for e in ENTRIES.values() if e.member} - set(ENTRIES)  # heads, unlinked
    assert sorted(listed) == sorted(set(ENTRIES) | owners)
