"""PROVISIONAL: replaced by day-classifier at merge.

A stand-in for the secret redaction of branch day-classifier (``redact(text) -> str``): a
few obvious patterns only (sk-/ghp_/AKIA keys, passwords in URLs, PEM private keys).
"""

from __future__ import annotations

import re

_PATTERNS = (
    (
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
        "[redacted private key]",
    ),
    (re.compile(r"\b(?:sk-(?:ant-)?|ghp_|gho_|github_pat_)[A-Za-z0-9_-]{16,}"), "[redacted]"),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), "[redacted]"),
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^\s:/@]+:)[^\s@/]+@"), r"\1[redacted]@"),
)


def redact(text: str) -> str:
    """PROVISIONAL: ``text`` with the obvious secrets replaced by markers."""
    for pattern, marker in _PATTERNS:
        text = pattern.sub(marker, text)
    return text
