"""IRI constants for every vocabulary CMC-KB writes, so no module spells an IRI by hand."""

from __future__ import annotations

from pyoxigraph import NamedNode

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
OWL = "http://www.w3.org/2002/07/owl#"
XSD = "http://www.w3.org/2001/XMLSchema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
DCTERMS = "http://purl.org/dc/terms/"
PROV = "http://www.w3.org/ns/prov#"
DOCO = "http://purl.org/spar/doco/"
PRISM = "http://prismstandard.org/namespaces/basic/2.0/"
PAV = "http://purl.org/pav/"
NIF = "http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#"
OA = "http://www.w3.org/ns/oa#"
SH = "http://www.w3.org/ns/shacl#"
OBO = "http://purl.obolibrary.org/obo/"
CMC = "https://w3id.org/cmc-kb/ontology#"

PREFIXES: dict[str, str] = {
    "rdf": RDF,
    "rdfs": RDFS,
    "owl": OWL,
    "xsd": XSD,
    "skos": SKOS,
    "dcterms": DCTERMS,
    "prov": PROV,
    "doco": DOCO,
    "prism": PRISM,
    "pav": PAV,
    "nif": NIF,
    "oa": OA,
    "sh": SH,
    "obo": OBO,
    "cmc": CMC,
}


def sparql_prefixes() -> str:
    """PREFIX header for every namespace above, so queries stay short and consistent."""
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())


def turtle_prefixes() -> str:
    """@prefix header for every namespace above, for Turtle written in tests and docs."""
    return "".join(f"@prefix {p}: <{iri}> .\n" for p, iri in PREFIXES.items())


def n(ns: str, local: str) -> NamedNode:
    """One named node in a namespace."""
    return NamedNode(ns + local)


# rdf / rdfs / xsd
TYPE = n(RDF, "type")
LABEL = n(RDFS, "label")
COMMENT = n(RDFS, "comment")
VALUE = n(RDF, "value")

# documents and structure
DOCUMENT = n(DOCO, "Document")
SECTION = n(DOCO, "Section")
PARAGRAPH = n(DOCO, "Paragraph")
LIST = n(DOCO, "List")
TABLE = n(DOCO, "Table")
FIGURE = n(DOCO, "Figure")
CAPTION = n(DOCO, "Caption")
TITLE = n(DCTERMS, "title")
IDENTIFIER = n(DCTERMS, "identifier")
FORMAT = n(DCTERMS, "format")
DATE = n(DCTERMS, "date")
LANGUAGE = n(DCTERMS, "language")
IS_PART_OF = n(DCTERMS, "isPartOf")
SOURCE = n(DCTERMS, "source")
PAGE_COUNT = n(PRISM, "pageCount")
VERSION = n(PAV, "version")

# spans (NIF 2.0 core): chunk text and offsets in the document's full text
NIF_CONTEXT = n(NIF, "Context")
NIF_IS_STRING = n(NIF, "isString")
NIF_ANCHOR_OF = n(NIF, "anchorOf")
NIF_BEGIN = n(NIF, "beginIndex")
NIF_END = n(NIF, "endIndex")
NIF_REFERENCE_CONTEXT = n(NIF, "referenceContext")

# provenance
PROV_ENTITY = n(PROV, "Entity")
PROV_ACTIVITY = n(PROV, "Activity")
PROV_SOFTWARE = n(PROV, "SoftwareAgent")
WAS_GENERATED_BY = n(PROV, "wasGeneratedBy")
WAS_ASSOCIATED_WITH = n(PROV, "wasAssociatedWith")
WAS_REVISION_OF = n(PROV, "wasRevisionOf")
USED = n(PROV, "used")

# own lexical terms (declared in ontologies/cmc-lexical.ttl)
CHUNK = n(CMC, "Chunk")
TABLE_CELL = n(CMC, "TableCell")
FILE_NAME = n(CMC, "fileName")
BYTE_HASH = n(CMC, "sha256")
CONTENT_HASH = n(CMC, "contentHash")
PAGE = n(CMC, "page")
READING_INDEX = n(CMC, "readingIndex")
NEXT_CHUNK = n(CMC, "nextChunk")
HEADING_LEVEL = n(CMC, "headingLevel")
SECTION_PATH = n(CMC, "sectionPath")
HAS_CELL = n(CMC, "hasCell")
ROW_INDEX = n(CMC, "rowIndex")
COLUMN_INDEX = n(CMC, "columnIndex")
IS_HEADER = n(CMC, "isHeader")
ROW_SPAN = n(CMC, "rowSpan")
COLUMN_SPAN = n(CMC, "columnSpan")
COLUMN_HEADER = n(CMC, "columnHeader")
CELL_TEXT = n(CMC, "cellText")
CHUNK_KIND = n(CMC, "chunkKind")
ROW_WINDOW = n(CMC, "rowWindow")
SOFTWARE_VERSION = n(CMC, "softwareVersion")

# named graphs (STYLE.md: urn:kb:graph:<layer>[/<doc-id>])
GRAPH_LEXICAL_PREFIX = "urn:kb:graph:lexical/"
GRAPH_ONTOLOGY = "urn:kb:graph:ontology"
GRAPH_DOMAIN = "urn:kb:graph:domain"
GRAPH_MENTIONS = "urn:kb:graph:mentions"
GRAPH_INFERRED = "urn:kb:graph:inferred"
GRAPH_VALIDATION = "urn:kb:graph:validation"
GRAPH_RESOLUTION = "urn:kb:graph:resolution"


def lexical_graph(doc_id: str) -> str:
    """Named graph holding one document's lexical tree."""
    return GRAPH_LEXICAL_PREFIX + doc_id


# extraction: mention classes (docs/extraction.md) and mention annotation terms
CHEMICAL_ENTITY_CLASS = n(OBO, "CHEBI_24431")
PLANNED_PROCESS_CLASS = n(OBO, "OBI_0000011")
UNIT_OPERATION_CLASS = n(OBO, "PROCO_0000051")
DEVICE_CLASS = n(OBO, "OBI_0000968")
IMPURITY_CLASS = n(OBO, "PROCO_0000031")
ROLE_CLASS = n(OBO, "BFO_0000023")
SOLVENT_ROLE = n(OBO, "CHEBI_46787")
CATALYST_ROLE = n(OBO, "CHEBI_35223")
REAGENT_ROLE = n(OBO, "CHEBI_33893")
BASE_ROLE = n(OBO, "CHEBI_22695")
STARTING_MATERIAL_ROLE = n(OBO, "PROCO_0000029")
INTERMEDIATE_ROLE = n(OBO, "PROCO_0000030")
ANTISOLVENT_ROLE = n(OBO, "PROCO_0000064")
PRODUCT_ROLE = n(CMC, "ProductRole")
QUENCH_AGENT_ROLE = n(CMC, "QuenchAgentRole")
ANALYTICAL_METHOD_CLASS = n(CMC, "AnalyticalMethod")
CONDITION_CLASS = n(CMC, "Condition")
BATCH_IDENTIFIER_CLASS = n(CMC, "BatchIdentifier")
OA_ANNOTATION = n(OA, "Annotation")
OA_SPECIFIC_RESOURCE = n(OA, "SpecificResource")
OA_TEXT_QUOTE_SELECTOR = n(OA, "TextQuoteSelector")
OA_TEXT_POSITION_SELECTOR = n(OA, "TextPositionSelector")
OA_HAS_TARGET = n(OA, "hasTarget")
OA_HAS_SOURCE = n(OA, "hasSource")
OA_HAS_SELECTOR = n(OA, "hasSelector")
OA_EXACT = n(OA, "exact")
OA_START = n(OA, "start")
OA_END = n(OA, "end")
MENTION_CLASS = n(CMC, "mentionClass")
REFINED_CLASS = n(CMC, "refinedClass")
EXTRACTION_RULE = n(CMC, "extractionRule")
LEXICON_ENTRY = n(CMC, "lexiconEntry")
CONDITION_KIND = n(CMC, "conditionKind")
NUMERIC_VALUE = n(CMC, "numericValue")
UNIT = n(CMC, "unit")

# ingestion of messy corpora (issue 4): OCR provenance, spreadsheet ranges, version chains
IS_VERSION_OF = n(DCTERMS, "isVersionOf")
TEXT_SOURCE = n(CMC, "textSource")  # "ocr" on chunks read by OCR
OCR_CONFIDENCE = n(CMC, "ocrConfidence")  # mean Tesseract word confidence (0-100) of the chunk's page
OCR_ENGINE = n(CMC, "ocrEngine")  # e.g. "tesseract 5.3.0 (eng+deu+fra)", on the document
OCR_LANGUAGES = n(CMC, "ocrLanguages")
OCR_DPI = n(CMC, "ocrDpi")
OCR_PAGES = n(CMC, "ocrPages")  # space-separated 1-based pages that were OCR'd
OCR_PAGE_CONFIDENCE = n(CMC, "ocrPageConfidence")  # "page:confidence" pairs, space-separated
CELL_RANGE = n(CMC, "cellRange")  # spreadsheet range of a table chunk, e.g. "A2:C7"
REPORT_SERIES = n(CMC, "ReportSeries")  # the report that several document versions are versions of
VERSION_RULE = n(CMC, "versionRule")  # how a series was recognised: "manifest", "report-id" or "title"
GRAPH_VERSIONS = "urn:kb:graph:versions"

# domain layer (resolution, docs/model.md "Domain layer")
PREF_LABEL = n(SKOS, "prefLabel")
ALT_LABEL = n(SKOS, "altLabel")
OA_HAS_BODY = n(OA, "hasBody")
WAS_DERIVED_FROM = n(PROV, "wasDerivedFrom")
RDF_STATEMENT = n(RDF, "Statement")
RDF_SUBJECT = n(RDF, "subject")
RDF_PREDICATE = n(RDF, "predicate")
RDF_OBJECT = n(RDF, "object")
HAS_SPECIFIED_INPUT = n(OBO, "OBI_0000293")
HAS_SPECIFIED_OUTPUT = n(OBO, "OBI_0000299")
HAS_PARTICIPANT = n(OBO, "RO_0000057")
HAS_ROLE = n(OBO, "RO_0000087")
PART_OF = n(OBO, "BFO_0000050")
PRECEDES = n(OBO, "BFO_0000063")
REALIZED_IN = n(OBO, "BFO_0000054")
HAS_CONDITION = n(CMC, "hasCondition")
VERBATIM = n(CMC, "verbatim")
RESOLUTION_RULE = n(CMC, "resolutionRule")
GENERATED = n(PROV, "generated")
RESOLUTION_DETAIL = n(CMC, "resolutionDetail")
