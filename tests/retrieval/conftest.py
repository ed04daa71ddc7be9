"""A small corpus ingested into a real in-memory Oxigraph store, indexed once per session."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kb.config import Config, load_config
from kb.ingest import ingest
from kb.retrieval.index import PassageIndex, build_index, open_index
from kb.store.oxigraph_local import OxigraphLocalStore
from kb.testing import SAMPLE, Outline, write_docx, write_pdf

V7 = replace(
    SAMPLE,
    report_line="Report TR-2019-014, Version 7, 2020-03-02",
    sections=[
        (1, "1 Introduction", ["The route to RA-X35 has six steps.", "Step 3 is now run in acetonitrile instead of 2-MeTHF."]),
        (1, "2 Results", ["The oxime was formed in water at 35 °C over 4 h.", "OK."]),
        (1, "3 Summary", ["Lot RA-X35-0043 met all specifications."]),
    ],
)


def retrieval_config(folder: Path) -> Config:
    return load_config(toml_path=folder / "absent.toml", env={}, overrides={"index.path": str(folder / "index")})


def corpus(folder: Path, v7: Outline = V7) -> Path:
    source = folder / "docs"
    source.mkdir(parents=True, exist_ok=True)
    write_docx(source / "TR-2019-014_v4.docx")
    write_pdf(source / "TR-2019-014_v7.pdf", v7)
    return source


@pytest.fixture(scope="session")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[OxigraphLocalStore, Config, PassageIndex]:
    folder = tmp_path_factory.mktemp("retrieval")
    store = OxigraphLocalStore(None)
    config = retrieval_config(folder)
    ingest(store, [corpus(folder)], config)
    build_index(store, config)
    return store, config, open_index(config)
