"""Graph Store Protocol details beyond the W3C suite: deterministic POST-created IRIs, media types."""

from __future__ import annotations

import requests

from kb.web.server import BackgroundServer

TURTLE = {"Content-Type": "text/turtle"}
BODY = '<http://ex.org/s> <http://ex.org/p> "o" .'


def test_post_to_the_endpoint_names_the_graph_by_content(live: BackgroundServer, auth: dict[str, str]) -> None:
    first = requests.post(live.gsp, data=BODY, headers={**TURTLE, **auth})
    assert first.status_code == 201
    location = first.headers["Location"]
    assert location.startswith(live.gsp + "/")
    again = requests.post(live.gsp, data=BODY, headers={**TURTLE, **auth})
    assert again.status_code == 204 and again.headers["Location"] == location
    fetched = requests.get(location, headers={"Accept": "application/n-triples"})
    assert fetched.status_code == 200 and fetched.text.strip() == BODY


def test_graph_lifecycle_and_media_types(live: BackgroundServer, auth: dict[str, str]) -> None:
    target = {"graph": "http://ex.org/g"}
    assert requests.get(live.gsp, params=target).status_code == 404
    nquads = requests.put(live.gsp, params=target, data=BODY, headers={"Content-Type": "application/n-quads", **auth})
    assert nquads.status_code == 415
    broken = requests.put(live.gsp, params=target, data="<http://ex.org/s> <", headers={**TURTLE, **auth})
    assert broken.status_code == 400 and "not valid Turtle" in broken.json()["error"]
    assert requests.put(live.gsp, params=target, data=BODY, headers={**TURTLE, **auth}).status_code == 201
    merged = requests.post(live.gsp, params=target, data='<http://ex.org/s> <http://ex.org/p> "o2" .',
                           headers={**TURTLE, **auth})
    assert merged.status_code == 204
    xml = requests.get(live.gsp, params=target, headers={"Accept": "application/rdf+xml"})
    assert xml.status_code == 200 and xml.headers["Content-Type"].startswith("application/rdf+xml") and "o2" in xml.text
    assert requests.get(live.gsp, params=target, headers={"Accept": "application/n-quads"}).status_code == 406
    assert requests.get(live.gsp, params={**target, "default": ""}).status_code == 400
    assert requests.delete(live.gsp, params=target, headers=auth).status_code == 204
    assert requests.delete(live.gsp, params=target, headers=auth).status_code == 404
    assert live.store.graphs() == []
