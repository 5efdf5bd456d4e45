"""Whether a prompt is only an acknowledgement ("yes", "ok thanks", "go on").

Its own module because the prompt hook asks it on every prompt, in a fresh process: the
capture classifier's patterns take tens of milliseconds to compile, this takes none of them.
"""

from __future__ import annotations

import re
from functools import cache

_ACK_HEADS = frozenset(
    """yes y yeah yep yup ya ok okay k kk sure thanks thx ty continue proceed lgtm next go do
    sounds great perfect cool nice alright agreed fine good keep approved ship
    👍 ✅ 👌 🙏""".split()
)
_ACK_WORDS = _ACK_HEADS | frozenset(
    """please pls thank you it on ahead that looks keep going carry right correct all so
    much lot very works done s thats sgtm now worked working helped fixed""".split()
)  # (days86: "great, that worked" retrieved 800 tokens of i18n code)
ACK_MAX_WORDS = 6


@cache
def _ack_token() -> re.Pattern[str]:
    """A word or an assent emoji. Compiled on first use: most prompts are told apart by
    their length or a question mark first, and a fresh hook process need not compile it."""
    return re.compile(r"[^\W\d_]+|[\U0001F300-\U0001FAFF\u2705\u2714]", re.UNICODE)


# Chinese and Japanese put no space between words: a prompt of more CJK letters than this
# holds several words (a Japanese question is ~10 and more; "バックアップ" is one word, 6).
ONE_WORD_CJK_LETTERS = 7


def is_one_word(prompt: str) -> bool:
    """A prompt of one word at most, too little to retrieve for: no white space inside,
    and not a run of CJK letters long enough to hold several words."""
    if len(prompt.split()) > 1:
        return False
    from credo.store.index_text import cjk_letters

    return cjk_letters(prompt) <= ONE_WORD_CJK_LETTERS


def is_acknowledgement(prompt: str) -> bool:
    """A short prompt that carries no task and no question ("yes", "ok thanks", "go on").

    Conservative: every word must come from a small vocabulary of assent, at least one of
    them a head word ("yes", "ok", "continue", "lgtm", ...), at most ``ACK_MAX_WORDS`` words,
    and no question mark, digit or other content.
    """
    stripped = prompt.strip()
    if not stripped or "?" in stripped or len(stripped) > 80:
        return False
    token = _ack_token()
    rest = token.sub(" ", stripped.lower())
    if rest.strip(" \t\n.,!:;-—–~*()'\"\ufe0f"):
        return False  # digits, code, paths: something beyond assent
    words = token.findall(stripped.lower())
    if not words or len(words) > ACK_MAX_WORDS:
        return False
    return all(w in _ACK_WORDS for w in words) and any(w in _ACK_HEADS for w in words)
