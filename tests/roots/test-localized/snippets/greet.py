"""Greet twice: the comments of this file are shown in Chinese.

Run: python greet.py
"""
import sys  # noqa: F401

# one greeting per line,
# two lines in all
for word in ("hello", "again"):
    print(word)  # printed text stays as it is: "hello # not a comment"
