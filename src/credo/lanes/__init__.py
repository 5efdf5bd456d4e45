"""Retrieval lanes: each module finds candidates one way and scores them in [0, 1]."""

LANES = ("bm25f", "heat", "bfs", "hrr", "doc")
