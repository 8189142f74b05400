"""Registry, checksums, download fallback, verify and the datasets page."""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest
from _data_helpers import MIRROR, REPO_ROOT, requires_mirror

import marginboost.data as data
from marginboost.data import fetch, registry
from marginboost.data.loaders import parse_file


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("MARGINBOOST_CACHE_DIR", str(cache))
    monkeypatch.delenv("MARGINBOOST_DATA_MIRROR", raising=False)
    return cache


def test_repository_copy_is_identical_to_package_registry():
    packaged = registry.registry_text().encode("utf-8")
    assert (REPO_ROOT / "data" / "datasets.yaml").read_bytes() == packaged


def test_registry_has_one_entry_per_mirror_file_with_unique_names():
    entries = registry.file_entries()
    assert len(entries) == 98
    names = data.list_datasets()
    assert len(names) == len(set(names))
    assert len({e["file"] for e in entries}) == 98
    for entry in entries:
        for key in (
            "sha256",
            "bytes",
            "raw_url",
            "original_source",
            "format",
            "task",
            "n",
            "d",
            "n_classes",
            "classes",
            "citation",
            "licence",
            "byte_status",
            "differences",
            "paper_expectation",
            "encoding",
        ):
            assert key in entry, (entry["name"], key)
        assert len(entry["sha256"]) == 64
        assert entry["raw_url"].startswith("https://raw.githubusercontent.com/")
        assert entry["task"] == ("binary" if len(entry["classes"]) == 2 else "multiclass")


@requires_mirror
def test_registry_matches_manifest():
    with open(MIRROR / "MANIFEST.csv", newline="") as handle:
        manifest = {row["file"]: row for row in csv.DictReader(handle)}
    entries = {e["file"]: e for e in registry.file_entries()}
    assert set(manifest) == set(entries)
    for path, row in manifest.items():
        assert entries[path]["sha256"] == row["sha256"]
        assert entries[path]["bytes"] == int(row["bytes"])
        assert entries[path]["raw_url"] == row["raw_url"]


def test_unknown_name_lists_close_matches():
    with pytest.raises(data.UnknownDatasetError) as info:
        data.load("ionosfere")
    assert "ionosphere" in info.value.close_matches
    assert "ionosfere" in str(info.value) and "ionosphere" in str(info.value)
    assert isinstance(info.value, ValueError)
    with pytest.raises(data.UnknownDatasetError) as info:
        data.get_entry("zzzzzz")
    assert info.value.close_matches == []


@requires_mirror
def test_verify_is_clean_on_the_mirror():
    assert data.verify(MIRROR) == []
    code, text = data.verify_report(MIRROR)
    assert code == 0 and "98/98 files verified" in text


def test_verify_reports_missing_and_mismatched_files(tmp_path):
    entry = data.get_entry("heart_scale")
    target = tmp_path / entry["file"]
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not the file")
    problems = data.verify(tmp_path)
    assert len(problems) == 98
    mismatched = [p for p in problems if p.startswith("mismatch")]
    assert len(mismatched) == 1 and entry["file"] in mismatched[0]
    code, text = data.verify_report(tmp_path)
    assert code == 1 and "0/98 files verified, 1 with a wrong sha256 or size, 97 missing" in text
    # the missing files are summarised in one line, the wrong one is listed in full
    assert len(text.splitlines()) == 4 and "97 files are missing" in text


def _corrupted_mirror(tmp_path: Path, name: str) -> tuple[Path, dict]:
    entry = data.get_entry(name)
    target = tmp_path / "mirror" / entry["file"]
    target.parent.mkdir(parents=True)
    raw = bytearray((MIRROR / entry["file"]).read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    target.write_bytes(bytes(raw))
    return tmp_path / "mirror", entry


@requires_mirror
def test_checksum_mismatch_is_refused(tmp_path, empty_cache, monkeypatch):
    mirror, entry = _corrupted_mirror(tmp_path, "heart_scale")
    parsed = []
    monkeypatch.setattr(
        "marginboost.data.loaders.parse_file", lambda *a, **k: parsed.append(a) or None
    )
    with pytest.raises(data.ChecksumError) as info:
        data.load("heart_scale", mirror)
    err = info.value
    assert err.expected == entry["sha256"]
    assert err.actual == fetch.sha256_of(mirror / entry["file"]) != entry["sha256"]
    assert entry["file"] in str(err) and entry["sha256"] in str(err)
    assert parsed == []  # the corrupted file never reached a parser


def test_missing_mirror_without_network_says_how_to_get_data(tmp_path, empty_cache, monkeypatch):
    def offline(*args, **kwargs):
        raise ConnectionError("network is unreachable")

    monkeypatch.setattr(fetch, "_download", offline)
    with pytest.raises(data.DataUnavailableError) as info:
        data.load("sonar")
    message = str(info.value)
    assert "MARGINBOOST_DATA_MIRROR" in message and "connect" in message
    assert data.get_entry("sonar")["raw_url"] in message
    with pytest.raises(data.DataUnavailableError):
        data.load("sonar", tmp_path / "no-such-mirror")


@requires_mirror
def test_download_goes_to_cache_and_is_checked(tmp_path, empty_cache, monkeypatch):
    calls = []

    def fake_download(url, known_hash, fname, path, progress=False):
        calls.append((url, known_hash))
        entry = next(e for e in registry.file_entries() if e["raw_url"] == url)
        Path(path).mkdir(parents=True, exist_ok=True)
        shutil.copy(MIRROR / entry["file"], Path(path) / fname)
        return str(Path(path) / fname)

    monkeypatch.setattr(fetch, "_download", fake_download)
    entry = data.get_entry("fourclass_scale")
    path = fetch.locate("fourclass_scale")
    assert path == empty_cache / entry["file"]
    assert calls == [(entry["raw_url"], "sha256:" + entry["sha256"])]
    fetch.locate("fourclass_scale")  # second call: served from the cache, no download
    assert len(calls) == 1

    def bad_download(url, known_hash, fname, path, progress=False):
        target = Path(path) / fname
        target.write_bytes(b"-1 1:0.5\n")
        return str(target)

    monkeypatch.setattr(fetch, "_download", bad_download)
    with pytest.raises(data.ChecksumError):
        fetch.locate("heart_scale")


def test_corrupt_content_raises_data_format_error(tmp_path):
    garbage = tmp_path / "garbage.tsv.gz"
    garbage.write_bytes(b"this is not gzip")
    with pytest.raises(data.DataFormatError, match="pmlb-tsv-gz"):
        parse_file(data.get_entry("sonar"), garbage)
    bad_uci = tmp_path / "glass.data"
    bad_uci.write_text("1,1.5,13.6,4.4,1.1,71.7,0.06,8.75,0.0,zero,1\n")
    with pytest.raises(data.DataFormatError, match="Fe"):
        parse_file(data.get_entry("glass_uci"), bad_uci)
    short = tmp_path / "heart_scale"
    short.write_text("+1 1:0.7 2:1\n")
    with pytest.raises(data.DataFormatError, match="features"):
        parse_file({**data.get_entry("heart_scale"), "options": {"n_features": 2}}, short)


def test_registry_table_and_text():
    table = data.registry_table()
    assert list(table.columns) == ["name", "format", "task", "n", "d", "classes", "source"]
    assert len(table) == len(data.list_datasets())
    row = table.set_index("name").loc["sonar"]
    assert (row["n"], row["d"], row["classes"]) == (208, 60, 2)
    text = data.format_registry_table()
    assert "ionosphere_scale" in text and "svmguide1.t" in text


def test_datasets_page_lists_every_file_and_the_missing_data():
    page = data.datasets_page_markdown()
    assert page.startswith("# Datasets\n")
    plain = re.sub(r"<wbr>", "", page)  # the page's line-break chances inside names
    for entry in registry.file_entries():
        assert f"<code>{entry['name']}</code>" in plain
        assert entry["sha256"] in page and entry["raw_url"] in page
    for missing in registry.missing_datasets():
        assert missing["dataset"] in page
    assert "a5a" in page and "liver-disorders" in page and "1,000,000" in page
    table_rows = [line for line in plain.splitlines() if line.startswith("| <code>")]
    counts = {
        line.count(" | ")
        for line in table_rows
        if re.sub(r"<[^>]+>", "", line.split(" | ")[0].split("<br>")[0])[2:]
        in {e["name"] for e in registry.file_entries()}
    }
    assert counts == {3}
