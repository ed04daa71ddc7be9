"""Recognise documents that are versions of the same report and link them in order.

Rule (docs/ingestion.md): documents with the same report id (``dcterms:identifier``), or without
one the same normalised title, and the same kind (slide decks and spreadsheets never join a
text report's chain) form a series when at least two of them state a version or a date.
Members are ordered by version number (numerically, 2 < 10 < 10.1), then date, then file name;
each is ``prov:wasRevisionOf`` its predecessor. Documents stating neither version nor date are
left out, so an appendix that merely cites a report id is not mistaken for a version of it.

A manifest (``versions.toml`` in an ingested folder) overrides the rule: its series are taken as
written (oldest first), its files never join an automatic series, and ``exclude`` keeps files
out of every series.

The links live in their own named graph ``urn:kb:graph:versions``, rebuilt as a whole on each
run: re-ingesting one document replaces its lexical graph without touching the links, and the
links can be dropped or recomputed alone.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pyoxigraph import Literal, NamedNode, Quad

from kb import vocab as V
from kb.errors import ConfigError
from kb.iris import slug
from kb.registry import StageContext, StageResult, stages
from kb.store import GraphStore

PRESENTATION = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
SPREADSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

DOCUMENTS_QUERY = V.sparql_prefixes() + """
SELECT ?doc ?name ?format ?title ?id ?version ?date WHERE {
  GRAPH ?g {
    ?doc a doco:Document ; cmc:fileName ?name ; dcterms:format ?format .
    OPTIONAL { ?doc dcterms:title ?title }
    OPTIONAL { ?doc dcterms:identifier ?id }
    OPTIONAL { ?doc pav:version ?version }
    OPTIONAL { ?doc dcterms:date ?date }
  }
  FILTER(STRSTARTS(STR(?g), "urn:kb:graph:lexical/"))
}
"""


@dataclass(frozen=True)
class StoredDocument:
    iri: str
    name: str
    kind: str
    title: str
    report_id: str
    version: str
    date: str


@dataclass
class Series:
    key: str
    rule: str
    members: list[StoredDocument] = field(default_factory=list)


@dataclass
class Manifest:
    series: list[tuple[str, list[tuple[str, str, str]]]] = field(default_factory=list)  # (id, [(file, version, date)])
    exclude: set[str] = field(default_factory=set)

    def files(self) -> set[str]:
        return {f for _, members in self.series for f, _, _ in members} | self.exclude


def kind_of(media_type: str) -> str:
    return {PRESENTATION: "presentation", SPREADSHEET: "spreadsheet"}.get(media_type, "report")


def stored_documents(store: GraphStore) -> list[StoredDocument]:
    docs: dict[str, StoredDocument] = {}
    for row in store.query(DOCUMENTS_QUERY):
        value = {k: (row[k].value if row[k] is not None else "") for k in ("doc", "name", "format", "title", "id", "version", "date")}
        docs[value["doc"]] = StoredDocument(value["doc"], value["name"], kind_of(value["format"]), value["title"],
                                            value["id"], value["version"], value["date"])
    return [docs[k] for k in sorted(docs)]


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)) or (10**9,)


def order_key(doc: StoredDocument) -> tuple[tuple[int, ...], str, str]:
    return (version_key(doc.version) if doc.version else (10**9,), doc.date or "9999-99-99", doc.name)


def ordered(members: list[StoredDocument]) -> list[StoredDocument]:
    """By version when every member states one, else by date when every member has one, else mixed."""
    if all(m.version for m in members):
        return sorted(members, key=order_key)
    if all(m.date for m in members):
        return sorted(members, key=lambda m: (m.date, version_key(m.version), m.name))
    return sorted(members, key=order_key)


def normalised_title(title: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", title.lower()).split())


def rule_series(docs: list[StoredDocument], manifest: Manifest) -> list[Series]:
    """Series found by the rule (report id, else title) among documents the manifest leaves free."""
    groups: dict[tuple[str, str, str], list[StoredDocument]] = {}
    taken = manifest.files()
    for doc in docs:
        if doc.name in taken or not (doc.version or doc.date):
            continue
        if doc.report_id:
            groups.setdefault(("report-id", doc.report_id, doc.kind), []).append(doc)
        elif normalised_title(doc.title):
            groups.setdefault(("title", normalised_title(doc.title), doc.kind), []).append(doc)
    return [
        Series(key=f"{key}/{kind}" if kind != "report" else key, rule=rule, members=ordered(members))
        for (rule, key, kind), members in sorted(groups.items())
        if len(members) >= 2
    ]


def manifest_series(docs: list[StoredDocument], manifest: Manifest) -> list[Series]:
    """Series as the manifest lists them; version and date come from the manifest when given."""
    by_name = {d.name: d for d in docs}
    out = []
    for series_id, members in manifest.series:
        chosen = [
            StoredDocument(d.iri, d.name, d.kind, d.title, series_id, version or d.version, date or d.date)
            for name, version, date in members
            if (d := by_name.get(name)) is not None
        ]
        if len(chosen) >= 2:
            out.append(Series(key=series_id, rule="manifest", members=chosen))
    return out


def load_manifest(path: Path) -> Manifest:
    """Read versions.toml; a malformed manifest is a ConfigError naming the file and entry."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read version manifest: {exc}") from exc
    manifest = Manifest(exclude=set(data.get("exclude", [])))
    for i, entry in enumerate(data.get("series", [])):
        members = []
        for j, version in enumerate(entry.get("versions", [])):
            if not isinstance(version, dict) or "file" not in version:
                raise ConfigError(f"{path}: series[{i}].versions[{j}] needs a 'file'")
            date = str(version.get("date", ""))
            if date and not DATE.match(date):
                raise ConfigError(f"{path}: series[{i}].versions[{j}].date must be YYYY-MM-DD, got {date!r}")
            members.append((str(version["file"]), str(version.get("version", "")), date))
        if "id" not in entry:
            raise ConfigError(f"{path}: series[{i}] needs an 'id'")
        manifest.series.append((str(entry["id"]), members))
    return manifest


def version_quads(series: list[Series], base_iri: str) -> list[Quad]:
    """The versions graph: series nodes, isVersionOf, version/date per member, revision links."""
    graph = NamedNode(V.GRAPH_VERSIONS)
    quads = []

    def add(s: NamedNode, p: NamedNode, o: NamedNode | Literal) -> None:
        quads.append(Quad(s, p, o, graph))

    for item in series:
        node = NamedNode(f"{base_iri}series/{slug(item.key)}")
        add(node, V.TYPE, V.REPORT_SERIES)
        add(node, V.IDENTIFIER, Literal(item.key))
        add(node, V.VERSION_RULE, Literal(item.rule))
        previous: NamedNode | None = None
        for doc in item.members:
            iri = NamedNode(doc.iri)
            add(iri, V.IS_VERSION_OF, node)
            if doc.version:
                add(iri, V.VERSION, Literal(doc.version))
            if doc.date and DATE.match(doc.date):
                add(iri, V.DATE, Literal(doc.date, datatype=NamedNode(V.XSD + "date")))
            if previous is not None:
                add(iri, V.WAS_REVISION_OF, previous)
            previous = iri
    return quads


def link_versions(store: GraphStore, base_iri: str, manifest: Manifest) -> list[Series]:
    """Recompute every version chain and replace the versions graph with them."""
    docs = stored_documents(store)
    series = manifest_series(docs, manifest) + rule_series(docs, manifest)
    store.replace_graph(V.GRAPH_VERSIONS, version_quads(series, base_iri))
    return series


def find_manifest(inputs: list[Path], file_name: str) -> Manifest:
    """Merge the manifests found in the ingested folders (file names are relative to each folder)."""
    merged = Manifest()
    for folder in sorted({p for p in inputs if p.is_dir()}):
        path = folder / file_name
        if path.is_file():
            found = load_manifest(path)
            merged.series.extend(found.series)
            merged.exclude |= found.exclude
    return merged


@stages.register("lexical.link_versions.v1", requires=["graph:lexical"], produces=["graph:versions"])
def link_versions_stage(ctx: StageContext, *, manifest: str = "") -> StageResult:
    """Link document versions with prov:wasRevisionOf in urn:kb:graph:versions (rule or manifest)."""
    chosen = load_manifest(Path(manifest)) if manifest else find_manifest(ctx.inputs, ctx.config["versions.manifest"])
    series = link_versions(ctx.store, ctx.config["base_iri"], chosen)
    lines = [f"version series: {len(series)}"]
    lines += [f"  {s.key} ({s.rule}): " + " < ".join(d.name for d in s.members) for s in series]
    return StageResult(lines=lines)
