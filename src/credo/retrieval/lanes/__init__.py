"""Retrieval lanes: each module finds or scores candidates one way; compose (rank.py)
normalises every lane to [0, 1]. The dialog lane has no scores of its own: it changes the
keyword lane's."""

LANES = (
    "bm25f",
    "dialog",
    "line",
    "defn",
    "heat",
    "bfs",
    "hrr",
    "doc",
    "session",
    "date",
    "speaker",
    "title",
    "latest",
)
