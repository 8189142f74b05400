"""Digests and key-number files used by the notebooks."""

from __future__ import annotations

import numpy as np
import pytest

from marginboost.reporting import (
    compare_key_numbers,
    digest,
    key_numbers_path,
    load_key_numbers,
    save_key_numbers,
)


def test_digest_is_short_rounded_and_changes_with_the_data():
    x = np.linspace(0, 1, 1001)
    text = digest(x, decimals=3)
    assert text.startswith("n=1001 min=0.000 max=1.000 mean=0.500")
    assert "samples=[0.000 0.250 0.500 0.750 1.000]" in text
    y = x.copy()
    y[500] += 0.01
    assert digest(y, decimals=3) != text
    assert digest([]) == "n=0"
    assert "inf" in digest([1.0, np.inf])


def test_key_numbers_round_trip_and_tolerances(tmp_path):
    path = save_key_numbers(
        "paper",
        "item",
        {"a": 1.0, "b": [1.0, 2.0]},
        profile="quick",
        rtol=1e-3,
        tolerances={"b": {"atol": 0.5}},
        root=tmp_path,
    )
    assert path == key_numbers_path("paper", "item", "quick", root=tmp_path)
    ref = load_key_numbers(path)
    assert compare_key_numbers(ref, ref) == []
    close = {**ref, "numbers": {"a": 1.0005, "b": [1.4, 2.0]}}
    assert compare_key_numbers(ref, close) == []
    far = {**ref, "numbers": {"a": 1.01, "b": [1.6, 2.0]}}
    problems = compare_key_numbers(ref, far)
    assert len(problems) == 2 and problems[0].startswith("a:")
    missing = {**ref, "numbers": {"a": 1.0}}
    assert compare_key_numbers(ref, missing) == ["b: missing from the fresh run"]


def test_results_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MARGINBOOST_RESULTS_DIR", str(tmp_path))
    assert key_numbers_path("p", "i", "full") == tmp_path / "p" / "i.full.json"


@pytest.mark.parametrize("bad", [{"x": "not a number"}])
def test_non_numeric_numbers_are_reported(tmp_path, bad):
    path = save_key_numbers("p", "i", {"x": 1.0}, profile="quick", root=tmp_path)
    ref = load_key_numbers(path)
    with pytest.raises(ValueError):
        compare_key_numbers(ref, {**ref, "numbers": bad})


def test_table_shows_text_for_nbval_and_coloured_html_for_the_book():
    import pandas as pd

    from marginboost.reporting import Table

    frame = pd.DataFrame(
        {
            "method": ["AB", "QP"],
            "paper": [0.15, 0.13],
            "ours": [0.126, float("nan")],
            "verdict": ["agrees", "not run"],
        }
    )
    table = Table(frame, bold={"paper": "min"}, caption="Table II")
    assert repr(table) == "Table II\n" + frame.to_string(index=False)
    html = table._repr_html_()
    assert '<td class="verdict-agrees">agrees</td>' in html
    assert '<td class="verdict-not-run">not run</td>' in html
    assert "<strong>0.13</strong>" in html and "<strong>0.15</strong>" not in html
    assert "<td></td>" in html  # a missing number is an empty cell, not "nan"
    assert Table(frame)._repr_html_() == Table(frame)._repr_html_()  # no random ids


def test_table_bolds_the_best_of_each_group():
    import pandas as pd

    from marginboost.reporting import Table

    frame = pd.DataFrame(
        {
            "dataset": ["a", "a", "b", "b"],
            "method": ["X", "Y", "X", "Y"],
            "paper": [0.2, 0.1, 0.3, 0.4],
            "ours": [0.15, 0.25, 0.5, float("nan")],
        }
    )
    html = Table(frame, bold={"paper": "min", "ours": "min"}, group_by="dataset")._repr_html_()
    assert html.count("<strong>") == 4
    for best in ("0.1", "0.15", "0.3", "0.5"):
        assert f"<strong>{best}</strong>" in html
    assert repr(Table(frame, bold={"paper": "min"}, group_by="dataset")) == frame.to_string(
        index=False
    )


def test_say_wraps_prose_at_the_text_width_and_keeps_paragraphs(capsys):
    from marginboost.reporting import TEXT_WIDTH, say

    say("word " * 40 + "\n\nsecond paragraph")
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= TEXT_WIDTH and len(lines) > 3
    assert lines[-2:] == ["", "second paragraph"]
    say("path/that_is_very_long_" * 5)  # a word longer than the width stays whole
    assert capsys.readouterr().out == "path/that_is_very_long_" * 5 + "\n"


def test_a_table_shows_a_series_and_named_index_levels_as_columns():
    import pandas as pd

    from marginboost.reporting import Table

    series = pd.Series([1.5, 2.5], index=pd.Index(["a", "b"], name="set"), name="error")
    table = Table(series, index=True)
    assert list(table.frame.columns) == ["set", "error"] and not table.index
    html = table._repr_html_()
    assert "<th>set</th><th>error</th>" in html and "<th>train error</th>" not in html
    assert "<th>train error</th>" in Table(pd.DataFrame({"train_error": [1.0]}))._repr_html_()
    unnamed = Table(pd.Series([1.0], index=["x"]), index=True)
    assert unnamed.index and list(unnamed.frame.columns) == [""]
