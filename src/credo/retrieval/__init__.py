"""The retrieval engine: the pipeline (``pipeline``) runs the lanes (``lanes/``), composes
their scores (``rank``), and packs the result by score (``pack``) or by intentional
clustering (``cluster``); HRR traces (``hrr``, ``hrr_sync``) serve the structural lane.
Pure functions over candidates wherever the maths allows; the store does the SQL."""
