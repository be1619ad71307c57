extensions = ["myst_parser", "refsite.sphinxext.verified_snippets"]
exclude_patterns = ["_build", "snippets"]
verified_snippets_root = "snippets"
language = "zh_CN"
nitpicky = True
html_search_language = "en"  # the search index is not under test (jieba stays unloaded)
