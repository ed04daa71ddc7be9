"""Language identification per chunk with lingua-language-detector.

The detector is built once per process and restricted to the languages a corpus is expected to
hold (setting ``lang.languages``), which makes it faster and avoids exotic false positives.
Chunks with too few words to judge (numbers, codes, short table rows) stay untagged rather than
guessed. The document's languages are those covering at least ``MIN_SHARE`` of its tagged text,
main language first.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from lingua import IsoCode639_1, LanguageDetector, LanguageDetectorBuilder

from kb.doctree import Block, ParsedDocument, Section
from kb.errors import ConfigError

MIN_WORDS = 3  # words of two or more letters needed before a chunk is tagged
MIN_SHARE = 0.1
MIN_RELATIVE_DISTANCE = 0.1  # lingua returns no language when the best two are closer than this
WORD = re.compile(r"[^\W\d_]{2,}")


@lru_cache(maxsize=4)
def detector(codes: str) -> LanguageDetector:
    """One detector per process and language set (building it is cheap; models load on first use)."""
    try:
        isos = [IsoCode639_1.from_str(code.strip().lower()) for code in codes.split(",") if code.strip()]
    except ValueError as exc:
        raise ConfigError(f"Setting 'lang.languages': unknown ISO 639-1 code in {codes!r}") from exc
    if len(isos) < 2:
        raise ConfigError("Setting 'lang.languages': name at least two languages, e.g. 'en,de'")
    return LanguageDetectorBuilder.from_iso_codes_639_1(*isos).with_minimum_relative_distance(MIN_RELATIVE_DISTANCE).build()


def blocks_of(section: Section) -> list[Block]:
    out: list[Block] = []
    for child in section.children:
        out.extend(blocks_of(child) if isinstance(child, Section) else [child])
    return out


def detect(texts: list[str], codes: str) -> list[str]:
    """ISO 639-1 code per text, or '' where the text is too short or ambiguous."""
    judged = [i for i, text in enumerate(texts) if len(WORD.findall(text)) >= MIN_WORDS]
    # one text at a time: the parallel variant starts a Rust thread pool, and a process that forks
    # parse workers after that deadlocks them
    found = [detector(codes).detect_language_of(texts[i]) for i in judged]
    out = [""] * len(texts)
    for i, language in zip(judged, found):
        out[i] = language.iso_code_639_1.name.lower() if language is not None else ""
    return out


def annotate_languages(parsed: ParsedDocument, codes: str) -> ParsedDocument:
    """Set each block's language and the document's languages (main first); '' codes disable it."""
    if not codes.strip():
        return parsed
    blocks = blocks_of(parsed.root)
    for block, language in zip(blocks, detect([b.text for b in blocks], codes)):
        block.language = language
    share: Counter[str] = Counter()
    for block in blocks:
        if block.language:
            share[block.language] += len(block.text)
    total = sum(share.values())
    parsed.languages = [code for code, size in sorted(share.items(), key=lambda kv: (-kv[1], kv[0])) if size >= MIN_SHARE * total]
    return parsed
