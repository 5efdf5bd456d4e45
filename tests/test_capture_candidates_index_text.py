"""capture_candidates reads the terms as the index holds them (store/index_text.py, m013):
a correction written in Japanese or with ß finds the belief it replaces, on both backends."""

from __future__ import annotations

from credo import Memory

BOTH_BACKENDS = True


def _candidates(memory: Memory, terms: list[str]) -> list[str]:
    return [c.content for c in memory.store.capture_candidates([terms], limit=5)]


def test_cjk_terms_find_the_belief(memory: Memory) -> None:
    memory.remember("データベース は PostgreSQL を 使う", kind="factual")
    # replace.search_terms's words: a CJK run is one \w+ word, as a prompt writes it.
    assert _candidates(memory, ["データベース", "postgresql"]) == [
        "データベース は PostgreSQL を 使う"
    ]


def test_sharp_s_terms_find_the_belief(memory: Memory) -> None:
    memory.remember("Die maximale Größe der Datei ist zehn Megabyte", kind="factual")
    assert _candidates(memory, ["maximale", "größe"]) == [
        "Die maximale Größe der Datei ist zehn Megabyte"
    ]


def test_ascii_terms_unchanged(memory: Memory) -> None:
    memory.remember("Always deploy to staging first", kind="requirement")
    assert _candidates(memory, ["deploy", "staging"]) == ["Always deploy to staging first"]


def test_a_group_of_one_term_asks_for_that_term(memory: Memory) -> None:
    # (knowledge/replace.py rule 5: the old value a correction names, looked up alone)
    memory.remember("We use npm to install packages", kind="factual")
    memory.remember("Install packages with pnpm", kind="factual")
    found = [c.content for c in memory.store.capture_candidates([["npm"]], limit=5)]
    assert found == ["We use npm to install packages"]


def test_postgres_phrases_read_terms_as_the_index() -> None:
    # PostgreSQL's capture candidates and queries go through ``Tokenizer.phrases``: a CJK
    # word is the phrase of its bigrams, as the index holds it (no server needed).
    from credo.store.index_text import index_text
    from credo.store.postgres.tokenizer import Tokenizer

    terms = ["データベース", "Größe", "deploy", "デー"]
    phrases = Tokenizer().phrases(terms)
    assert phrases[0] == ("デー", "ータ", "タベ", "ベー", "ース")
    assert phrases == Tokenizer().phrases([index_text(t) for t in terms])
