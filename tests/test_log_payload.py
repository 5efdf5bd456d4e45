"""The log's payload encoder writes ``json.dumps(payload, sort_keys=True)``'s text."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from credo.store.log import _payload_encoder

_VALUES = st.none() | st.booleans() | st.integers() | st.floats() | st.text()


@given(st.dictionaries(st.text(), _VALUES | st.lists(_VALUES, max_size=3), max_size=8))
def test_a_payload_is_the_text_dumps_writes(payload: dict[str, object]) -> None:
    assert _payload_encoder()(payload) == json.dumps(payload, sort_keys=True)
