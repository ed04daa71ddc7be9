"""One real server (waitress on a loopback port) over the sample store, shared by the API tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kb.web.testing import SampleSite

TOKEN = "api-test-token"


@pytest.fixture(scope="session")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SampleSite]:
    site = SampleSite.start(tmp_path_factory.mktemp("api"), **{"server.token": TOKEN})
    yield site
    site.stop()


@pytest.fixture
def auth() -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}"}
