"""Hand-built corpora for resolution tests: chunk text with inline mention markup.

`[[2-MeTHF|substance]]` marks a mention; `[[2-MeTHF|substance|solvent]]` adds the role assignment
the extractor would write over the same span; `[[50 °C|condition|temperature|50|degC]]` a condition;
`[[solvent|role]]` a role word. Offsets are computed, so fixtures stay readable.
"""

from __future__ import annotations

import re

from kb.resolve.inputs import (
    ROLE_CLASSES,
    ChunkInfo,
    Corpus,
    DocumentInfo,
    LocalMention,
    kind_of,
)
from kb.stages.extract.mentions import KIND_CLASSES

BASE = "https://w3id.org/cmc-kb/id/"
_MARK = re.compile(r"\[\[(.+?)\]\]")


def parse_chunk(iri: str, marked: str) -> tuple[str, list[LocalMention]]:
    text, mentions, pos, last = "", [], 0, 0
    for match in _MARK.finditer(marked):
        text += marked[last : match.start()]
        surface, kind, *extra = match.group(1).split("|")
        start, end = len(text), len(text) + len(surface)
        text += surface
        last = match.end()
        if kind == "role":
            cls = ROLE_CLASSES[surface.lower()]
            mentions.append(LocalMention(iri, start, end, cls, surface, "lexicon.role", "role", surface.lower()))
        elif kind == "condition":
            ckind, value, unit = extra
            mentions.append(LocalMention(iri, start, end, KIND_CLASSES["condition"], surface, "condition.pattern", "condition", "", ckind, value, unit))
        else:
            rule = "substance.class_number" if re.match(r"^[a-z]+ \d+[a-z]?$", surface) and kind == "substance" else f"test.{kind}"
            mentions.append(LocalMention(iri, start, end, KIND_CLASSES[kind], surface, rule, kind))
            if extra:
                role = extra[0]
                mentions.append(LocalMention(iri, start, end, ROLE_CLASSES[role], surface, "role.test", *kind_of(ROLE_CLASSES[role], "role.test")))
    text += marked[last:]
    del pos
    return text, mentions


def make_corpus(documents: dict[str, tuple[str, str, list[tuple[str, str]]]]) -> Corpus:
    """documents: doc-id -> (series, version, [(section path, marked chunk text)])."""
    mentions: list[LocalMention] = []
    chunks: dict[str, ChunkInfo] = {}
    docs: dict[str, DocumentInfo] = {}
    for doc_id, (series, version, items) in sorted(documents.items()):
        doc = f"{BASE}doc/{doc_id}"
        docs[doc] = DocumentInfo(doc, series, version, f"{series} v{version}")
        for index, (path, marked) in enumerate(items):
            iri = f"{doc}/chunk/{index}"
            text, found = parse_chunk(iri, marked)
            chunks[iri] = ChunkInfo(iri, doc, text, path, index)
            mentions.extend(found)
    return Corpus(sorted(set(mentions)), chunks, docs)


def two_versions() -> Corpus:
    """One report in two versions: step 2 swaps THF for 2-MeTHF and lowers the temperature."""
    return make_corpus({
        "d1": ("TR-1", "1", [
            ("2 Step 2: dehydration", "[[Step 2|planned_process]] ([[dehydration to nitrile|planned_process]]) converts [[oxime 9|substance|intermediate]] with [[CDI|substance|reagent]] in [[THF|substance|solvent]] ([[10 vol|condition|volume|10|vol]]) at [[65 °C|condition|temperature|65|degC]] in [[R-101|equipment]]."),
            ("2 Step 2: dehydration", "The mixture was quenched with [[water|substance|quench agent]] and [[compound 7|substance|product]] was isolated by [[filtration|unit_operation]]. The [[solvent|role]] was recovered."),
            ("3 Step 3: cyclisation", "[[Step 3|planned_process]] uses [[nitrile 7|substance|intermediate]] with [[KOtBu|substance|base]] in [[2-MeTHF|substance|solvent]] and [[H2O|substance|solvent]] to give [[RA-X35|substance|product]] (lot [[RA-X35-0042|batch]])."),
        ]),
        "d2": ("TR-1", "2", [
            ("2 Step 2: dehydration", "[[Step 2|planned_process]] converts [[compound 9|substance|intermediate]] with [[carbonyldiimidazole|substance|reagent]] in [[2-methyltetrahydrofuran|substance|solvent]] at [[60 °C|condition|temperature|60|degC]] in [[R-101|equipment]]."),
            ("2 Step 2: dehydration", "[[5-bromo-2-fluoronicotinonitrile|substance]] ([[compound 7|substance|product]]) crystallised on [[crystallization|unit_operation]] from [[water|substance|antisolvent]]."),
            ("3 Step 3: cyclisation", "[[S3|planned_process]] gave [[RA-X35|substance|product]] (lot [[RA-X35-0043|batch]]); [[tetrahydrofuran|substance]] was not used. [[KX-4471 free base|substance]] and [[KX-4471 hydrochloride|substance]] were compared with [[(R)-1-phenylethanol|substance]] and [[(S)-1-phenylethanol|substance]], [[3,5-dibromoaniline|substance]] and [[3-bromoaniline|substance]]."),
        ]),
    })


def store_corpus(store: object, corpus: Corpus) -> None:
    """Write a corpus as the lexical and extract stages would: chunk facts plus the mentions graph."""
    from pyoxigraph import Literal, NamedNode, Quad

    from kb import vocab
    from kb.stages.extract.mentions import Mention, mention_quads

    xsd_int = NamedNode(vocab.XSD + "nonNegativeInteger")
    for doc in corpus.documents.values():
        graph = NamedNode(vocab.lexical_graph(doc.iri.rsplit("/", 1)[1]))
        d = NamedNode(doc.iri)
        quads = [Quad(d, vocab.TYPE, vocab.DOCUMENT, graph), Quad(d, vocab.IDENTIFIER, Literal(doc.series), graph),
                 Quad(d, vocab.VERSION, Literal(doc.version), graph), Quad(d, vocab.TITLE, Literal(doc.title), graph),
                 Quad(d, vocab.FILE_NAME, Literal(doc.name or doc.iri.rsplit("/", 1)[1] + ".docx"), graph)]
        for chunk in corpus.chunks.values():
            if chunk.document != doc.iri:
                continue
            c = NamedNode(chunk.iri)
            section = NamedNode(f"{doc.iri}/section/{chunk.section_path.split(' ')[0]}")
            quads += [Quad(c, vocab.TYPE, vocab.CHUNK, graph), Quad(c, vocab.NIF_REFERENCE_CONTEXT, d, graph),
                      Quad(c, vocab.NIF_ANCHOR_OF, Literal(chunk.text), graph),
                      Quad(c, vocab.READING_INDEX, Literal(str(chunk.reading_index), datatype=xsd_int), graph),
                      Quad(c, vocab.IS_PART_OF, section, graph), Quad(section, vocab.SECTION_PATH, Literal(chunk.section_path), graph)]
        store.replace_graph(graph.value, quads)  # type: ignore[attr-defined]
    mentions = []
    for m in corpus.mentions:
        attrs = (("condition", m.condition_kind), ("unit", m.unit), ("value", m.value)) if m.kind == "condition" else ()
        kind = "role" if m.kind in {"role", "role_assignment"} else m.kind
        mentions.append(Mention(m.chunk, m.start, m.end, m.cls, m.text, kind, m.rule, attrs))
    store.replace_graph(vocab.GRAPH_MENTIONS, mention_quads(mentions))  # type: ignore[attr-defined]
