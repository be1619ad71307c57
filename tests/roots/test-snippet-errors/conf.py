extensions = ["myst_parser", "verified_snippets"]
exclude_patterns = ["_build", "snippets"]
verified_snippets_root = "snippets"
